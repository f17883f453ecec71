import { and, asc, count, eq, sql } from "drizzle-orm";
import { passkey, user } from "../../auth/auth-schema";
import type { Database, Transaction } from "../../db/database";
import { member, organization } from "./organization-schema";
import { tenantSettings } from "./tenant-schema";

export type TenantRow = typeof organization.$inferSelect;
export type TenantSettingsRow = typeof tenantSettings.$inferSelect;

export const DEFAULT_EVENT_RETENTION_DAYS = 400;
export const DEFAULT_AUDIT_RETENTION_DAYS = 400;

export async function findTenant(db: Database, tenantId: string): Promise<TenantRow | undefined> {
  const [row] = await db.select().from(organization).where(eq(organization.id, tenantId)).limit(1);
  return row;
}

export async function findTenantBySlug(db: Database, slug: string): Promise<TenantRow | undefined> {
  const [row] = await db.select().from(organization).where(eq(organization.slug, slug)).limit(1);
  return row;
}

/** The tenant's settings; a tenant that never saved any has the defaults. */
export async function findTenantSettings(db: Database, tenantId: string): Promise<TenantSettingsRow> {
  const [row] = await db.select().from(tenantSettings).where(eq(tenantSettings.tenantId, tenantId)).limit(1);
  return (
    row ?? {
      tenantId,
      defaultWaiverApprovalMode: "AUTO",
      maxWaiverDurationHours: 72,
      waiverLinkBaseUrl: "",
      requireSeparateApprover: true,
      eventRetentionDays: DEFAULT_EVENT_RETENTION_DAYS,
      auditRetentionDays: DEFAULT_AUDIT_RETENTION_DAYS,
      waiverRequesterDomains: [],
      requireMfa: false,
      createdAt: new Date(0),
      updatedAt: new Date(0),
    }
  );
}

export async function saveTenantSettings(
  db: Database,
  tenantId: string,
  values: Pick<
    TenantSettingsRow,
    "defaultWaiverApprovalMode" | "maxWaiverDurationHours" | "waiverLinkBaseUrl"
  > &
    Partial<
      Pick<
        TenantSettingsRow,
        | "requireSeparateApprover"
        | "eventRetentionDays"
        | "auditRetentionDays"
        | "waiverRequesterDomains"
        | "requireMfa"
      >
    >,
): Promise<void> {
  await db
    .insert(tenantSettings)
    .values({ tenantId, ...values })
    .onConflictDoUpdate({ target: tenantSettings.tenantId, set: { ...values, updatedAt: new Date() } });
}

/** Whether the tenant requires MFA of its members (Require MFA; off when it saved no settings). */
export async function findRequireMfa(db: Database, tenantId: string): Promise<boolean> {
  const [row] = await db
    .select({ requireMfa: tenantSettings.requireMfa })
    .from(tenantSettings)
    .where(eq(tenantSettings.tenantId, tenantId))
    .limit(1);
  return row?.requireMfa ?? false;
}

/** Members with neither an authenticator app nor a passkey: Require MFA asks them to set one up. */
export async function countMembersWithoutMfa(db: Database, tenantId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(member)
    .innerJoin(user, eq(member.userId, user.id))
    .where(
      and(
        eq(member.organizationId, tenantId),
        eq(user.twoFactorEnabled, false),
        sql`not exists (select 1 from ${passkey} where ${passkey.userId} = ${user.id})`,
      ),
    );
  return row?.n ?? 0;
}

export async function renameTenant(db: Database, tenantId: string, name: string): Promise<void> {
  await db.update(organization).set({ name }).where(eq(organization.id, tenantId));
}

/** Every tenant the user belongs to, oldest membership first. */
export async function listUserTenants(db: Database, userId: string): Promise<TenantRow[]> {
  const rows = await db
    .select({ tenant: organization })
    .from(member)
    .innerJoin(organization, eq(member.organizationId, organization.id))
    .where(eq(member.userId, userId))
    .orderBy(asc(member.createdAt));
  return rows.map((r) => r.tenant);
}

/** Whether any tenant exists yet: on an empty database the first start creates one. */
export async function anyTenantExists(db: Database): Promise<boolean> {
  const [row] = await db.select({ id: organization.id }).from(organization).limit(1);
  return Boolean(row);
}

/** A new tenant with default settings. */
export async function insertTenant(
  db: Database,
  tenant: { id: string; name: string; slug: string },
): Promise<void> {
  await db.insert(organization).values(tenant);
  await db.insert(tenantSettings).values({ tenantId: tenant.id });
}

/** Every tenant with how many days its events, or its audit records, are kept (the default when it saved no settings). */
async function listRetentions(
  db: Database,
  kind: "events" | "audit",
): Promise<{ tenantId: string; days: number }[]> {
  const column = kind === "events" ? tenantSettings.eventRetentionDays : tenantSettings.auditRetentionDays;
  const fallback = kind === "events" ? DEFAULT_EVENT_RETENTION_DAYS : DEFAULT_AUDIT_RETENTION_DAYS;
  const rows = await db
    .select({ tenantId: organization.id, days: column })
    .from(organization)
    .leftJoin(tenantSettings, eq(tenantSettings.tenantId, organization.id));
  return rows.map((r) => ({ tenantId: r.tenantId, days: r.days ?? fallback }));
}

export const listEventRetentions = (db: Database) => listRetentions(db, "events");
export const listAuditRetentions = (db: Database) => listRetentions(db, "audit");

/** A new tenant with default settings and its first member, an administrator, in one transaction. */
export async function insertTenantWithAdministrator(
  db: Database,
  tenant: { id: string; name: string; slug: string },
  administratorId: string,
  /** Written in the same transaction: the audit record of the creation. */
  audit?: (tx: Transaction) => Promise<void>,
): Promise<void> {
  await db.transaction(async (tx) => {
    await audit?.(tx);
    await tx.insert(organization).values(tenant);
    await tx.insert(tenantSettings).values({ tenantId: tenant.id });
    await tx.insert(member).values({
      id: crypto.randomUUID(),
      organizationId: tenant.id,
      userId: administratorId,
      role: "ADMINISTRATOR",
    });
  });
}

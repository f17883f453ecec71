import { and, eq, gt, inArray, isNull, lt } from "drizzle-orm";
import { user } from "../../auth/auth-schema";
import type { Database } from "../../db/database";
import { bundles } from "../deployment/deployment-schema";
import { member } from "../tenant/organization-schema";
import { chatNonces, notificationDeliveries, notificationSettings } from "./notification-schema";

export type NotificationSettingsRow = typeof notificationSettings.$inferSelect;
export type NotificationSettingsInsert = typeof notificationSettings.$inferInsert;
export type DeliveryRow = typeof notificationDeliveries.$inferSelect;
export type Channel = "email" | "slack" | "teams";

export async function findNotificationSettings(
  db: Database,
  tenantId: string,
): Promise<NotificationSettingsRow | undefined> {
  const [row] = await db
    .select()
    .from(notificationSettings)
    .where(eq(notificationSettings.tenantId, tenantId))
    .limit(1);
  return row;
}

export async function saveNotificationSettings(
  db: Database,
  tenantId: string,
  values: Omit<NotificationSettingsInsert, "tenantId" | "createdAt" | "updatedAt">,
): Promise<void> {
  await db
    .insert(notificationSettings)
    .values({ ...values, tenantId })
    .onConflictDoUpdate({ target: notificationSettings.tenantId, set: { ...values, updatedAt: new Date() } });
}

export async function listDeliveries(db: Database, tenantId: string): Promise<DeliveryRow[]> {
  return db.select().from(notificationDeliveries).where(eq(notificationDeliveries.tenantId, tenantId));
}

export async function recordDelivery(
  db: Database,
  tenantId: string,
  channel: Channel,
  outcome: { status: string; error: string; subject: string },
): Promise<void> {
  const at = new Date();
  await db
    .insert(notificationDeliveries)
    .values({ tenantId, channel, ...outcome, at })
    .onConflictDoUpdate({
      target: [notificationDeliveries.tenantId, notificationDeliveries.channel],
      set: { ...outcome, at },
    });
}

/** Members of the tenant holding one of these roles, with their e-mail addresses. */
export async function membersWithRoles(
  db: Database,
  tenantId: string,
  roles: string[],
): Promise<{ userId: string; email: string; name: string }[]> {
  if (roles.length === 0) return [];
  return db
    .select({ userId: user.id, email: user.email, name: user.name })
    .from(member)
    .innerJoin(user, eq(member.userId, user.id))
    .where(and(eq(member.organizationId, tenantId), inArray(member.role, roles)));
}

/** A member of the tenant by e-mail address (case-insensitive), with their role there. */
export async function memberByEmail(
  db: Database,
  tenantId: string,
  email: string,
): Promise<{ userId: string; email: string; name: string; role: string } | undefined> {
  const [row] = await db
    .select({ userId: user.id, email: user.email, name: user.name, role: member.role })
    .from(member)
    .innerJoin(user, eq(member.userId, user.id))
    .where(and(eq(member.organizationId, tenantId), eq(user.email, email.toLowerCase())))
    .limit(1);
  return row;
}

export async function findBundleSummary(
  db: Database,
  tenantId: string,
  bundleId: string,
): Promise<{ name: string; key: string; status: string; errorCodes: string[] } | undefined> {
  const [row] = await db
    .select({ name: bundles.name, key: bundles.key, status: bundles.status, errorCodes: bundles.errorCodes })
    .from(bundles)
    .where(and(eq(bundles.tenantId, tenantId), eq(bundles.id, bundleId)))
    .limit(1);
  return row;
}

export async function insertNonce(
  db: Database,
  tenantId: string,
  values: { id: string; kind: string; expiresAt: Date },
): Promise<boolean> {
  const rows = await db
    .insert(chatNonces)
    .values({ ...values, tenantId })
    .onConflictDoNothing()
    .returning({ id: chatNonces.id });
  return rows.length > 0;
}

/** Spends an issued, unexpired token once; false if it was spent, expired or never issued. */
export async function spendNonce(db: Database, tenantId: string, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(chatNonces)
    .set({ usedAt: now })
    .where(
      and(
        eq(chatNonces.tenantId, tenantId),
        eq(chatNonces.id, id),
        isNull(chatNonces.usedAt),
        gt(chatNonces.expiresAt, now),
      ),
    )
    .returning({ id: chatNonces.id });
  return rows.length > 0;
}

/** Expired nonces no longer guard anything. */
export async function deleteExpiredNoncesAnyTenant(db: Database, before: Date): Promise<void> {
  await db.delete(chatNonces).where(lt(chatNonces.expiresAt, before));
}

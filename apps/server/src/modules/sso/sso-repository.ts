import { and, asc, eq, isNotNull, isNull, notInArray } from "drizzle-orm";
import type { Database } from "../../db/database";
import { organization } from "../tenant/organization-schema";
import { ssoProvider } from "./sso-provider-schema";
import { tenantSso, tenantSsoDomain } from "./sso-schema";

export type TenantSsoRow = typeof tenantSso.$inferSelect;
export type SsoDomainRow = typeof tenantSsoDomain.$inferSelect;
export type SsoProviderRow = typeof ssoProvider.$inferSelect;

export interface TenantSsoRecord {
  settings: TenantSsoRow;
  provider: SsoProviderRow | undefined;
  domains: SsoDomainRow[];
}

/** The identity provider's id in Better Auth (it appears in the callback and ACS URLs). */
export function providerIdOf(tenantId: string): string {
  return `tenant-${tenantId}`;
}

export async function findTenantSso(db: Database, tenantId: string): Promise<TenantSsoRecord | undefined> {
  const [settings] = await db.select().from(tenantSso).where(eq(tenantSso.tenantId, tenantId));
  if (!settings) return undefined;
  const [provider] = await db.select().from(ssoProvider).where(eq(ssoProvider.organizationId, tenantId));
  const domains = await db
    .select()
    .from(tenantSsoDomain)
    .where(eq(tenantSsoDomain.tenantId, tenantId))
    .orderBy(asc(tenantSsoDomain.domain));
  return { settings, provider, domains };
}

/** The tenant whose single sign-on owns this (verified) domain, and its policy. */
export async function findSsoForDomain(
  db: Database,
  domain: string,
): Promise<{ tenantId: string; ssoRequired: boolean; defaultRole: string } | undefined> {
  const [row] = await db
    .select({
      tenantId: tenantSso.tenantId,
      ssoRequired: tenantSso.ssoRequired,
      defaultRole: tenantSso.defaultRole,
    })
    .from(tenantSsoDomain)
    .innerJoin(tenantSso, eq(tenantSso.tenantId, tenantSsoDomain.tenantId))
    .innerJoin(ssoProvider, eq(ssoProvider.organizationId, tenantSso.tenantId))
    .where(and(eq(tenantSsoDomain.domain, domain), isNotNull(tenantSsoDomain.verifiedAt)))
    .limit(1);
  return row;
}

export interface SaveTenantSso {
  tenantId: string;
  protocol: "oidc" | "saml";
  defaultRole: string;
  ssoRequired: boolean;
  domains: string[];
  issuer: string;
  oidcConfig: string | null;
  samlConfig: string | null;
  userId: string;
}

/**
 * Stores the tenant's policy, its domains (new ones unverified, kept ones as they were) and its
 * identity provider, then points the provider at the verified domains.
 */
export async function saveTenantSso(db: Database, values: SaveTenantSso): Promise<void> {
  await db.transaction(async (tx) => {
    const { tenantId } = values;
    await tx
      .insert(tenantSso)
      .values({
        tenantId,
        protocol: values.protocol,
        defaultRole: values.defaultRole,
        ssoRequired: values.ssoRequired,
      })
      .onConflictDoUpdate({
        target: tenantSso.tenantId,
        set: { protocol: values.protocol, defaultRole: values.defaultRole, ssoRequired: values.ssoRequired },
      });
    await tx
      .delete(tenantSsoDomain)
      .where(
        values.domains.length > 0
          ? and(eq(tenantSsoDomain.tenantId, tenantId), notInArray(tenantSsoDomain.domain, values.domains))
          : eq(tenantSsoDomain.tenantId, tenantId),
      );
    if (values.domains.length > 0) {
      await tx
        .insert(tenantSsoDomain)
        .values(
          values.domains.map((domain) => ({
            tenantId,
            domain,
            verificationToken: crypto.randomUUID().replaceAll("-", ""),
          })),
        )
        .onConflictDoNothing();
    }
    const providerValues = {
      issuer: values.issuer,
      oidcConfig: values.oidcConfig,
      samlConfig: values.samlConfig,
      userId: values.userId,
    };
    await tx
      .insert(ssoProvider)
      .values({
        id: crypto.randomUUID(),
        providerId: providerIdOf(tenantId),
        organizationId: tenantId,
        domain: "",
        domainVerified: false,
        ...providerValues,
      })
      .onConflictDoUpdate({ target: ssoProvider.providerId, set: providerValues });
    await syncProviderDomains(tx as unknown as Database, tenantId);
  });
}

/** The provider matches only verified domains; with none it is refused by Better Auth. */
async function syncProviderDomains(db: Database, tenantId: string): Promise<void> {
  const verified = await db
    .select({ domain: tenantSsoDomain.domain })
    .from(tenantSsoDomain)
    .where(and(eq(tenantSsoDomain.tenantId, tenantId), isNotNull(tenantSsoDomain.verifiedAt)))
    .orderBy(asc(tenantSsoDomain.domain));
  const domains = verified.map((row) => row.domain);
  await db
    .update(ssoProvider)
    .set({ domain: domains.join(","), domainVerified: domains.length > 0 })
    .where(eq(ssoProvider.providerId, providerIdOf(tenantId)));
}

export async function deleteTenantSso(db: Database, tenantId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(ssoProvider).where(eq(ssoProvider.organizationId, tenantId));
    await tx.delete(tenantSsoDomain).where(eq(tenantSsoDomain.tenantId, tenantId));
    await tx.delete(tenantSso).where(eq(tenantSso.tenantId, tenantId));
  });
}

export async function findSsoDomain(
  db: Database,
  tenantId: string,
  domain: string,
): Promise<SsoDomainRow | undefined> {
  const [row] = await db
    .select()
    .from(tenantSsoDomain)
    .where(and(eq(tenantSsoDomain.tenantId, tenantId), eq(tenantSsoDomain.domain, domain)));
  return row;
}

/** Whether another tenant has verified the domain already. */
export async function domainVerifiedElsewhere(
  db: Database,
  tenantId: string,
  domain: string,
): Promise<boolean> {
  const rows = await db
    .select({ tenantId: tenantSsoDomain.tenantId })
    .from(tenantSsoDomain)
    .where(and(eq(tenantSsoDomain.domain, domain), isNotNull(tenantSsoDomain.verifiedAt)));
  return rows.some((row) => row.tenantId !== tenantId);
}

/** Marks the domain verified (by "dns" or "instance-admin") or unverified (`by` null). */
export async function setSsoDomainVerified(
  db: Database,
  tenantId: string,
  domain: string,
  by: string | null,
): Promise<SsoDomainRow | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(tenantSsoDomain)
      .set(by ? { verifiedAt: new Date(), verifiedBy: by } : { verifiedAt: null, verifiedBy: null })
      .where(and(eq(tenantSsoDomain.tenantId, tenantId), eq(tenantSsoDomain.domain, domain)))
      .returning();
    await syncProviderDomains(tx as unknown as Database, tenantId);
    return row;
  });
}

export async function listUnverifiedDomains(
  db: Database,
): Promise<{ tenantId: string; tenantName: string; domain: SsoDomainRow }[]> {
  const rows = await db
    .select({ domain: tenantSsoDomain, tenantName: organization.name })
    .from(tenantSsoDomain)
    .innerJoin(organization, eq(organization.id, tenantSsoDomain.tenantId))
    .where(isNull(tenantSsoDomain.verifiedAt))
    .orderBy(asc(organization.name), asc(tenantSsoDomain.domain))
    .limit(500);
  return rows.map((row) => ({
    tenantId: row.domain.tenantId,
    tenantName: row.tenantName,
    domain: row.domain,
  }));
}

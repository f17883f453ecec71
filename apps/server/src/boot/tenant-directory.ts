import type { TenantDirectory } from "../auth/tenant-directory";
import type { Database } from "../db/database";
import { findSsoForDomain, providerIdOf } from "../modules/sso/sso-repository";
import { listMembershipsOfUserAnyTenant } from "../modules/team/team-repository";
import { insertMember, provisionSsoMember } from "../modules/tenant/tenant-api";
import { anyTenantExists, findRequireMfa, insertTenant } from "../modules/tenant/tenant-repository";

/** The identity layer's view of tenants, members and single sign-on, on the repositories that own them. */
export function createTenantDirectory(db: Database): TenantDirectory {
  return {
    membershipsOf: (userId) => listMembershipsOfUserAnyTenant(db, userId),
    requiresMfa: (tenantId) => findRequireMfa(db, tenantId),
    ssoProviderIdOf: providerIdOf,
    ssoForDomain: (domain) => findSsoForDomain(db, domain),
    joinBySso: (member) => provisionSsoMember(db, member),
    anyTenantExists: () => anyTenantExists(db),
    async createTenantWithAdministrator(tenant, administratorUserId) {
      await db.transaction(async (tx) => {
        await insertTenant(tx as unknown as Database, tenant);
        await insertMember(tx as unknown as Database, {
          tenantId: tenant.id,
          userId: administratorUserId,
          role: "ADMINISTRATOR",
        });
      });
    },
  };
}

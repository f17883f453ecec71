/** What other modules may use of tenants: their settings, requester domains and memberships. */

export {
  deleteMember,
  insertMember,
  insertMembership,
  provisionSsoMember,
  updateMemberRole,
} from "./membership-repository";
export { inRequesterDomains, isDomainName } from "./requester-domains";
export { findTenantSettings, type TenantSettingsRow } from "./tenant-repository";
export { requireTenant } from "./tenants";

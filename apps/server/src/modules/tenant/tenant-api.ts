/** What other modules may use of tenants: their settings and requester domains. */
export { inRequesterDomains, isDomainName } from "./requester-domains";
export { findTenantSettings, type TenantSettingsRow } from "./tenant-repository";
export { requireTenant } from "./tenants";

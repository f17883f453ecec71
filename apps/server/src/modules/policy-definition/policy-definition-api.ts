/** What other modules may use of policy definitions: the tenant's catalogue and definition lookups. */
export {
  definitionMessage,
  enforcerOfProvider,
  enumName,
  providerOfEnforcer,
  SUMMARY_EXCLUDED,
} from "./definition-message";
export { requireSlug, searchText, sortDefinitions } from "./definition-query";
export { findTenantDefinition } from "./policy-definition-repository";
export { safeReadingUrls } from "./reading-url";
export { loadTenantCatalogue, type TenantCatalogue, type TenantDefinition } from "./tenant-catalogue";

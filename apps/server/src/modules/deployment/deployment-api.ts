/**
 * What other modules may use of deployments: creating bundles (initiatives, recommendations),
 * bundle reads and messages, and where policies are deployed.
 */
export { type PreparedBundle, prepareBundle, storeBundle } from "./bundle-create";
export { parseNamespace } from "./bundle-input";
export { policyUsage } from "./bundle-query-repository";
export { findBundle, findBundleByKeyAnyTenant } from "./bundle-repository";
export { bundleMessage, modeName, modeOfName, statusOfName } from "./deployment-message";
export { bundlesWithErrors, liveScopesOfPolicies, type PolicyScopeRow } from "./policy-scopes-repository";
export { tenantReads } from "./tenant-reads";

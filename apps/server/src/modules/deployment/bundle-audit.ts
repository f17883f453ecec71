import type { BundleRow } from "./bundle-repository";

/** What an audit record shows of a bundle: what a person set, not what the cloud reported. */
export function bundleAuditView(bundle: BundleRow) {
  const externalIds = (scopes: unknown) =>
    ((scopes ?? []) as { externalId: string }[]).map((s) => s.externalId);
  return {
    name: bundle.name,
    key: bundle.key,
    policySlug: bundle.policySlug,
    mode: bundle.mode,
    scopes: externalIds(bundle.scopes),
    excludedScopes: externalIds(bundle.excludedScopes),
    parameters: bundle.parameters,
    isVisible: bundle.isVisible,
    namespace: bundle.namespace,
    waiverApprovalMode: bundle.waiverApprovalMode,
  };
}

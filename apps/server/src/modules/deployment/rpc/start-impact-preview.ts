import { requireCaller } from "../../../rpc/call-context";
import { invalidField } from "../../../rpc/errors";
import { definitionFor } from "../compile-check";
import type { DeploymentRpc, DeploymentServiceDeps } from "../deployment-deps";
import { startImpactPreview } from "../impact-preview";
import { impactPreviewMessage } from "../impact-preview-message";
import { tenantReads } from "../tenant-reads";

export function startImpactPreviewRpc(deps: DeploymentServiceDeps): DeploymentRpc["startImpactPreview"] {
  return async (req, ctx) => {
    const caller = requireCaller(ctx);
    if (!req.policySlug.trim()) throw invalidField("policy_slug", "required.");
    const tenant = tenantReads(deps, caller.tenantId);
    const definition = await definitionFor(tenant, req.policySlug);
    // Reads the cloud's audit stream and changes nothing: no audit record.
    const row = await startImpactPreview(deps, tenant, {
      definition,
      parameters: req.parameters,
      scopes: req.scopes,
      excludedScopes: req.excludedScopes,
      periodDays: req.periodDays,
      refresh: req.refresh,
      createdBy: caller.name,
    });
    return { preview: impactPreviewMessage(row) };
  };
}

import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  StartImpactPreviewRequest,
  StartImpactPreviewResponseSchema,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { invalidField } from "../../../rpc/errors";
import { definitionFor } from "../compile-check";
import type { DeploymentServiceDeps } from "../deployment-deps";
import { startImpactPreview as startPreview } from "../impact-preview";
import { impactPreviewMessage } from "../impact-preview-message";
import { tenantReads } from "../tenant-reads";

export async function startImpactPreview(
  deps: DeploymentServiceDeps,
  req: StartImpactPreviewRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof StartImpactPreviewResponseSchema>> {
  const caller = requireCaller(ctx);
  if (!req.policySlug.trim()) throw invalidField("policy_slug", "required.");
  const tenant = tenantReads(deps, caller.tenantId);
  const definition = await definitionFor(tenant, req.policySlug);
  // Reads the cloud's audit stream and changes nothing: no audit record.
  const row = await startPreview(deps, tenant, {
    definition,
    parameters: req.parameters,
    scopes: req.scopes,
    excludedScopes: req.excludedScopes,
    periodDays: req.periodDays,
    refresh: req.refresh,
    createdBy: caller.name,
  });
  return { preview: impactPreviewMessage(row) };
}

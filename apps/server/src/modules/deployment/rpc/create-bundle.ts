import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  CreateBundleRequest,
  CreateBundleResponseSchema,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { WaiverApprovalMode } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { requireCaller } from "../../../rpc/call-context";
import { invalidField } from "../../../rpc/errors";
import { recordAudit } from "../../audit/audit-api";
import { bundleAuditView } from "../bundle-audit";
import { createBundleNow } from "../bundle-create";
import { parseManagedBy, parseName, parseNamespace } from "../bundle-input";
import { definitionFor } from "../compile-check";
import type { DeploymentServiceDeps } from "../deployment-deps";
import { bundleMessage, modeName } from "../deployment-message";
import { tenantReads } from "../tenant-reads";

export async function createBundle(
  deps: DeploymentServiceDeps,
  req: CreateBundleRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof CreateBundleResponseSchema>> {
  const caller = requireCaller(ctx);
  const name = parseName(req.name);
  if (!req.policySlug.trim()) throw invalidField("policy_slug", "required.");
  const mode = modeName(req.mode);
  const namespace = parseNamespace(req.namespace);
  // The catalogue and the settings are read once for the whole call.
  const tenant = tenantReads(deps, caller.tenantId);
  const definition = await definitionFor(tenant, req.policySlug);
  const approval = req.waiverSettings?.approvalMode ?? WaiverApprovalMode.UNSPECIFIED;
  const bundle = await createBundleNow(deps, tenant, {
    name,
    definition,
    scopes: req.scopes,
    excludedScopes: req.excludedScopes,
    mode: mode as "PREVENT" | "ALERT",
    parameters: req.parameters,
    isVisible: req.isVisible,
    namespace,
    waiverApprovalMode:
      approval === WaiverApprovalMode.UNSPECIFIED ? undefined : WaiverApprovalMode[approval],
    createdBy: caller.name,
    managedBy: parseManagedBy(req.managedBy),
    audit: (tx, stored) =>
      recordAudit(tx, ctx, {
        target: { type: "bundle", id: stored.id, name: stored.name },
        after: bundleAuditView(stored),
      }),
  });
  return { bundle: bundleMessage(bundle) };
}

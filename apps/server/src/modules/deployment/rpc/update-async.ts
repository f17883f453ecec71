import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  UpdateAsyncRequest,
  UpdateAsyncResponseSchema,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { enqueueBundleSync } from "../../../jobs/bundle-sync-job";
import { requireCaller } from "../../../rpc/call-context";
import { deploymentNotFound } from "../bundle-lookup";
import { changeMode } from "../change-mode";
import type { DeploymentServiceDeps } from "../deployment-deps";
import { deploymentMessage } from "../deployment-message";
import { findDeployment } from "../deployment-repository";

export async function updateAsync(
  { db, jobs }: DeploymentServiceDeps,
  req: UpdateAsyncRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof UpdateAsyncResponseSchema>> {
  const caller = requireCaller(ctx);
  const { bundle, deploymentId } = await changeMode(db, ctx, req.id, req.mode);
  // The deployment as the change left it (pending), read before its sync is queued: a worker that
  // starts the sync at once would otherwise make the answer depend on how far it got.
  const row = await findDeployment(db, caller.tenantId, deploymentId);
  if (!row) throw deploymentNotFound();
  const jobId = await enqueueBundleSync(jobs, {
    tenantId: caller.tenantId,
    bundleId: bundle.id,
    reason: "mode changed",
  });
  return { deployment: deploymentMessage(row), jobId: jobId ?? "" };
}

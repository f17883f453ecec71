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
  const jobId = await enqueueBundleSync(jobs, {
    tenantId: caller.tenantId,
    bundleId: bundle.id,
    reason: "mode changed",
  });
  const row = await findDeployment(db, caller.tenantId, deploymentId);
  if (!row) throw deploymentNotFound();
  return { deployment: deploymentMessage(row), jobId: jobId ?? "" };
}

import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import { Code } from "@connectrpc/connect";
import type {
  UpdateRequest,
  UpdateResponseSchema,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { enqueueBundleSync } from "../../../jobs/bundle-sync-job";
import { requireCaller } from "../../../rpc/call-context";
import { callError } from "../../../rpc/errors";
import { TransientCloudError } from "../bundle-apply";
import { deploymentNotFound } from "../bundle-lookup";
import { changeMode } from "../change-mode";
import type { DeploymentServiceDeps } from "../deployment-deps";
import { deploymentMessage, errorCodeOfName } from "../deployment-message";
import { findDeployment } from "../deployment-repository";

export async function update(
  { db, jobs, engine }: DeploymentServiceDeps,
  req: UpdateRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof UpdateResponseSchema>> {
  const caller = requireCaller(ctx);
  const { bundle, deploymentId } = await changeMode(db, ctx, req.id, req.mode);
  // Waits for the cloud: the change is applied in this call; a throttled cloud leaves it to the job.
  try {
    await engine.syncBundle(caller.tenantId, bundle.id, { lastAttempt: false });
  } catch (error) {
    if (!(error instanceof TransientCloudError)) throw error;
    await enqueueBundleSync(jobs, {
      tenantId: caller.tenantId,
      bundleId: bundle.id,
      reason: "mode changed",
    });
  }
  const row = await findDeployment(db, caller.tenantId, deploymentId);
  if (!row) throw deploymentNotFound();
  if (row.status === "FAILED") {
    throw callError(Code.FailedPrecondition, row.errorMessage ?? "The cloud did not accept the change.", {
      product: errorCodeOfName(row.errorCode ?? "DEPLOYMENT_SYNC_FAILED"),
    });
  }
  return { deployment: deploymentMessage(row) };
}

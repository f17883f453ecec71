import { enqueueBundleSync } from "../../../jobs/bundle-sync-job";
import { requireCaller } from "../../../rpc/call-context";
import { deploymentNotFound } from "../bundle-lookup";
import { changeMode } from "../change-mode";
import type { DeploymentRpc, DeploymentServiceDeps } from "../deployment-deps";
import { deploymentMessage } from "../deployment-message";
import { findDeployment } from "../deployment-repository";

export function updateAsync({ db, jobs }: DeploymentServiceDeps): DeploymentRpc["updateAsync"] {
  return async (req, ctx) => {
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
  };
}

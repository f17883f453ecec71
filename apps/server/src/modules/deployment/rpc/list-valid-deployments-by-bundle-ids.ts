import { requireCaller } from "../../../rpc/call-context";
import { invalidField } from "../../../rpc/errors";
import type { DeploymentRpc, DeploymentServiceDeps } from "../deployment-deps";
import { validDeploymentIds } from "../deployment-repository";

export function listValidDeploymentsByBundleIds({
  db,
}: DeploymentServiceDeps): DeploymentRpc["listValidDeploymentsByBundleIds"] {
  return async (req, ctx) => {
    const caller = requireCaller(ctx);
    if (req.bundleId.length > 100) throw invalidField("bundle_id", "at most 100 ids.");
    return { deploymentIds: await validDeploymentIds(db, caller.tenantId, req.bundleId) };
  };
}

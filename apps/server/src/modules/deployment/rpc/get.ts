import { requireCaller } from "../../../rpc/call-context";
import { deploymentFor, deploymentNotFound } from "../bundle-lookup";
import { listDeploymentsWithCounts } from "../bundle-query-repository";
import type { DeploymentRpc, DeploymentServiceDeps } from "../deployment-deps";
import { extendedDeploymentMessage } from "../deployment-message";

export function get({ db }: DeploymentServiceDeps): DeploymentRpc["get"] {
  return async (req, ctx) => {
    const caller = requireCaller(ctx);
    const row = await deploymentFor(db, caller, req.lookup);
    const { items } = await listDeploymentsWithCounts(db, caller.tenantId, { ids: [row.id] });
    const item = items[0];
    if (!item) throw deploymentNotFound();
    return { deployment: extendedDeploymentMessage(item.deployment, item.counts) };
  };
}

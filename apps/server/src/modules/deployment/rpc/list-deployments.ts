import { requireCaller } from "../../../rpc/call-context";
import { pageResponse, pageWindow } from "../../../rpc/pagination";
import { filterStrings } from "../bundle-filter";
import { listDeploymentsWithCounts } from "../bundle-query-repository";
import type { DeploymentRpc, DeploymentServiceDeps } from "../deployment-deps";
import { extendedDeploymentMessage, modeName } from "../deployment-message";

export function listDeployments({ db }: DeploymentServiceDeps): DeploymentRpc["listDeployments"] {
  return async (req, ctx) => {
    const caller = requireCaller(ctx);
    const window = pageWindow(req.pagination);
    const { items, total } = await listDeploymentsWithCounts(
      db,
      caller.tenantId,
      {
        scopes: filterStrings(req.scopes),
        modes: req.modes.map((mode) => modeName(mode, "modes")),
        bundleId: req.bundleId || undefined,
      },
      window,
    );
    return {
      items: items.map((item) => extendedDeploymentMessage(item.deployment, item.counts)),
      pagination: pageResponse(total, window),
    };
  };
}

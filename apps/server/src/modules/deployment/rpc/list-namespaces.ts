import { requireCaller } from "../../../rpc/call-context";
import type { DeploymentRpc, DeploymentServiceDeps } from "../deployment-deps";
import { listNamespaces as namespacesOf } from "../deployment-repository";

export function listNamespaces({ db }: DeploymentServiceDeps): DeploymentRpc["listNamespaces"] {
  return async (_req, ctx) => {
    const caller = requireCaller(ctx);
    return { namespaces: await namespacesOf(db, caller.tenantId) };
  };
}

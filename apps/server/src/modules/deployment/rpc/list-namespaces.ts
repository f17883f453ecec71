import { requireCaller } from "../../../rpc/call-context";
import { listNamespaces as namespacesOf } from "../bundle-repository";
import type { DeploymentRpc, DeploymentServiceDeps } from "../deployment-deps";

export function listNamespaces({ db }: DeploymentServiceDeps): DeploymentRpc["listNamespaces"] {
  return async (_req, ctx) => {
    const caller = requireCaller(ctx);
    return { namespaces: await namespacesOf(db, caller.tenantId) };
  };
}

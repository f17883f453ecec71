import { requireCaller } from "../../../rpc/call-context";
import { parseNamespace } from "../bundle-input";
import { summariseBundles } from "../bundle-repository";
import type { DeploymentRpc, DeploymentServiceDeps } from "../deployment-deps";

export function summaryBundle({ db }: DeploymentServiceDeps): DeploymentRpc["summaryBundle"] {
  return async (req, ctx) => {
    const caller = requireCaller(ctx);
    const namespace = req.namespace === undefined ? undefined : (parseNamespace(req.namespace) ?? undefined);
    const rows = await summariseBundles(db, caller.tenantId, namespace);
    const of = (mode: string) => rows.find((r) => r.mode === mode)?.policies ?? 0;
    return { total: of("PREVENT") + of("ALERT"), prevent: of("PREVENT"), alert: of("ALERT") };
  };
}

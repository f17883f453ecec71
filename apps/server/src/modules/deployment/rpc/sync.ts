import { enqueueReconcile } from "../../../jobs/reconcile-job";
import { requireCaller } from "../../../rpc/call-context";
import { recordAudit } from "../../audit/audit-log";
import type { DeploymentRpc, DeploymentServiceDeps } from "../deployment-deps";

export function sync({ db, jobs }: DeploymentServiceDeps): DeploymentRpc["sync"] {
  return async (_req, ctx) => {
    const caller = requireCaller(ctx);
    const jobId = await enqueueReconcile(jobs, { tenantId: caller.tenantId });
    await db.transaction((tx) => recordAudit(tx, ctx, { target: { type: "tenant", id: caller.tenantId } }));
    return { jobId: jobId ?? "" };
  };
}

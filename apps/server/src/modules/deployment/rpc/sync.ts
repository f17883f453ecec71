import { enqueueReconcile } from "../../../jobs/reconcile-job";
import { requireCaller } from "../../../rpc/call-context";
import { auditCall } from "../../audit/audit-log";
import type { DeploymentRpc, DeploymentServiceDeps } from "../deployment-deps";

export function sync({ db, jobs }: DeploymentServiceDeps): DeploymentRpc["sync"] {
  return async (_req, ctx) => {
    const caller = requireCaller(ctx);
    const jobId = await enqueueReconcile(jobs, { tenantId: caller.tenantId });
    await auditCall(db, ctx, { targetType: "tenant", targetId: caller.tenantId });
    return { jobId: jobId ?? "" };
  };
}

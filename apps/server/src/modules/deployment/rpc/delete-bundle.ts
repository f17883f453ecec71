import { requireCaller } from "../../../rpc/call-context";
import { auditCall } from "../../audit/audit-log";
import { bundleById } from "../bundle-lookup";
import { enqueueBundleDelete } from "../bundle-sync";
import type { DeploymentRpc, DeploymentServiceDeps } from "../deployment-deps";
import { cancelWaiversOfBundle, updateBundle } from "../deployment-repository";

export function deleteBundle({ db, jobs }: DeploymentServiceDeps): DeploymentRpc["deleteBundle"] {
  return async (req, ctx) => {
    const caller = requireCaller(ctx);
    const bundle = await bundleById(db, caller, req.id);
    if (!bundle.deletedAt) {
      await updateBundle(db, caller.tenantId, bundle.id, {
        deletedAt: new Date(),
        status: "DELETED",
        editedBy: caller.name,
        editedAt: new Date(),
      });
      await cancelWaiversOfBundle(db, bundle.id);
      await auditCall(db, ctx, { targetType: "bundle", targetId: bundle.id, details: { key: bundle.key } });
    }
    // Queued again on a repeated call, so that a removal that failed earlier is retried.
    await enqueueBundleDelete(jobs, { tenantId: caller.tenantId, bundleId: bundle.id });
    return {};
  };
}

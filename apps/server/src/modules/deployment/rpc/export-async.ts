import { requireCaller } from "../../../rpc/call-context";
import { exportFormat, readBundleFilter } from "../bundle-filter";
import type { DeploymentRpc, DeploymentServiceDeps } from "../deployment-deps";

export function exportAsync({ exports }: DeploymentServiceDeps): DeploymentRpc["exportAsync"] {
  return async (req, ctx) => {
    const caller = requireCaller(ctx);
    const result = await exports.exportLater({
      tenantId: caller.tenantId,
      kind: "bundles",
      params: { filter: readBundleFilter(req.filter) },
      format: exportFormat(req.format),
      createdBy: caller.id,
      ctx,
    });
    return { presignedUrl: result.presignedUrl, jobId: result.jobId };
  };
}

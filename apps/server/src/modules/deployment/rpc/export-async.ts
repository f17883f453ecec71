import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  ExportAsyncRequest,
  ExportAsyncResponseSchema,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { exportFormat, readBundleFilter } from "../bundle-filter";
import type { DeploymentServiceDeps } from "../deployment-deps";

export async function exportAsync(
  { exports }: DeploymentServiceDeps,
  req: ExportAsyncRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof ExportAsyncResponseSchema>> {
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
}

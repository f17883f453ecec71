import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  ExportRequest,
  ExportResponseSchema,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { exportFormat, readBundleFilter } from "../bundle-filter";
import type { DeploymentServiceDeps } from "../deployment-deps";

export async function export$(
  { exports }: DeploymentServiceDeps,
  req: ExportRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof ExportResponseSchema>> {
  const caller = requireCaller(ctx);
  const result = await exports.exportNow({
    tenantId: caller.tenantId,
    kind: "bundles",
    params: { filter: readBundleFilter(req.filter) },
    format: exportFormat(req.format),
    createdBy: caller.id,
    ctx,
  });
  return { presignedUrl: result.presignedUrl };
}

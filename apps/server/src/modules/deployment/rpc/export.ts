import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  ExportRequest,
  ExportResponseSchema,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { bundleExportRequest } from "../bundle-export";
import type { DeploymentServiceDeps } from "../deployment-deps";

/** Writes the bundles export now and returns its signed link. */
export async function export$(
  { exports }: DeploymentServiceDeps,
  req: ExportRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof ExportResponseSchema>> {
  const result = await exports.exportNow(bundleExportRequest(req, ctx));
  return { presignedUrl: result.presignedUrl };
}

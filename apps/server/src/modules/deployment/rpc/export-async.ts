import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  ExportAsyncRequest,
  ExportAsyncResponseSchema,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { bundleExportRequest } from "../bundle-export";
import type { DeploymentServiceDeps } from "../deployment-deps";

/** Queues the bundles export; the returned link answers once the job has written the file. */
export async function exportAsync(
  { exports }: DeploymentServiceDeps,
  req: ExportAsyncRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof ExportAsyncResponseSchema>> {
  const result = await exports.exportLater(bundleExportRequest(req, ctx));
  return { presignedUrl: result.presignedUrl, jobId: result.jobId };
}

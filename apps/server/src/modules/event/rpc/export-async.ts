import type { HandlerContext } from "@connectrpc/connect";
import type { ExportAsyncRequest } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import type { EventServiceDeps } from "../event-deps";
import { eventExportRequest } from "../event-export";

/** Queues the export; the returned link answers once the job has written the file. */
export async function exportAsync(
  { db, exports }: EventServiceDeps,
  req: ExportAsyncRequest,
  ctx: HandlerContext,
) {
  const result = await exports.exportLater(await eventExportRequest(db, req, ctx));
  return { presignedUrl: result.presignedUrl, jobId: result.jobId };
}

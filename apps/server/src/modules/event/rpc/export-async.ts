import type { HandlerContext } from "@connectrpc/connect";
import type { ExportAsyncRequest } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import type { EventServiceDeps } from "../event-deps";
import { EVENTS_EXPORT, eventExportParams } from "../event-export";
import { exportFormatOf, parseEventFilter } from "../event-request";

/** Queues the export; the returned link answers once the job has written the file. */
export async function exportAsync(
  { db, exports }: EventServiceDeps,
  req: ExportAsyncRequest,
  ctx: HandlerContext,
) {
  const caller = requireCaller(ctx);
  // A bad filter fails the call, not the job.
  await parseEventFilter(db, caller.tenantId, req.filter);
  const result = await exports.exportLater({
    tenantId: caller.tenantId,
    kind: EVENTS_EXPORT,
    params: eventExportParams(req.filter),
    format: exportFormatOf(req.format),
    createdBy: caller.id,
    ctx,
  });
  return { presignedUrl: result.presignedUrl, jobId: result.jobId };
}

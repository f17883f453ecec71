import type { HandlerContext } from "@connectrpc/connect";
import type { ExportRequest } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import type { EventServiceDeps } from "../event-deps";
import { EVENTS_EXPORT, eventExportParams } from "../event-export";
import { exportFormatOf, parseEventFilter } from "../event-request";

/** Writes the export file now and returns its signed link. */
export async function export$({ db, exports }: EventServiceDeps, req: ExportRequest, ctx: HandlerContext) {
  const caller = requireCaller(ctx);
  // A bad filter fails the call, not the export.
  await parseEventFilter(db, caller.tenantId, req.filter);
  const result = await exports.exportNow({
    tenantId: caller.tenantId,
    kind: EVENTS_EXPORT,
    params: eventExportParams(req.filter),
    format: exportFormatOf(req.format),
    createdBy: caller.id,
    ctx,
  });
  return { presignedUrl: result.presignedUrl };
}

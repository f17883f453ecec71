import type { HandlerContext } from "@connectrpc/connect";
import type { ExportRequest } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import type { EventServiceDeps } from "../event-deps";
import { eventExportRequest } from "../event-export";

/** Writes the export file now and returns its signed link. */
export async function export$({ db, exports }: EventServiceDeps, req: ExportRequest, ctx: HandlerContext) {
  const result = await exports.exportNow(await eventExportRequest(db, req, ctx));
  return { presignedUrl: result.presignedUrl };
}

import { Code, type HandlerContext } from "@connectrpc/connect";
import {
  ExportStatus,
  type GetExportStatusRequest,
} from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { callError } from "../../../rpc/errors";
import type { EventServiceDeps } from "../event-deps";
import { EVENTS_EXPORT } from "../event-export";
import { requiredId } from "../event-request";

const statusOf = {
  QUEUED: ExportStatus.QUEUED,
  RUNNING: ExportStatus.RUNNING,
  SUCCEEDED: ExportStatus.SUCCEEDED,
  FAILED: ExportStatus.FAILED,
} as const;

/** The progress of one of the caller's tenant's event exports. */
export async function getExportStatus(
  { exports }: EventServiceDeps,
  req: GetExportStatusRequest,
  ctx: HandlerContext,
) {
  const caller = requireCaller(ctx);
  const jobId = requiredId(req.jobId, "job_id");
  const found = await exports.status(caller.tenantId, EVENTS_EXPORT, jobId);
  if (!found) throw callError(Code.NotFound, "No such export in this tenant; start the export again.");
  return {
    status: statusOf[found.status] ?? ExportStatus.UNSPECIFIED,
    progress: found.progress,
    rows: found.rows,
    error: found.error,
  };
}

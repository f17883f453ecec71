import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import {
  ExportStatus,
  type GetExportStatusRequest,
  type GetExportStatusResponseSchema,
} from "@palisade/api/gen/palisade/audit/v1/audit_pb";
import { requireCaller } from "../../../rpc/call-context";
import type { AuditServiceDeps } from "../audit-deps";
import { AUDIT_EXPORT } from "../audit-export";

const statusOf: Record<string, ExportStatus> = {
  QUEUED: ExportStatus.QUEUED,
  RUNNING: ExportStatus.RUNNING,
  SUCCEEDED: ExportStatus.SUCCEEDED,
  FAILED: ExportStatus.FAILED,
};

export async function getExportStatus(
  deps: AuditServiceDeps,
  req: GetExportStatusRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof GetExportStatusResponseSchema>> {
  const caller = requireCaller(ctx);
  const jobId = req.jobId.trim();
  const found = jobId ? await deps.exports.status(caller.tenantId, AUDIT_EXPORT, jobId) : undefined;
  if (!found) throw new ConnectError("No such export in this tenant; start the export again.", Code.NotFound);
  return {
    status: statusOf[found.status] ?? ExportStatus.UNSPECIFIED,
    progress: found.progress,
    rows: found.rows,
    error: found.error,
  };
}

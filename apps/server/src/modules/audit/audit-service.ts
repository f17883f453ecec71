import { timestampDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import {
  type AuditFilter,
  type AuditService,
  ExportStatus,
} from "@palisade/api/gen/palisade/audit/v1/audit_pb";
import { ExportFormat } from "@palisade/api/gen/palisade/common/v1/common_pb";
import type { Database } from "../../db/database";
import { requireCaller } from "../../rpc/call-context";
import { invalidArgument } from "../../rpc/errors";
import { pageResponse, pageWindow } from "../../rpc/pagination";
import type { ExportFormatName, ExportService } from "../export/export-service";
import { AUDIT_EXPORT, auditExportParams, defineAuditExport } from "./audit-export";
import { auditRecordMessage } from "./audit-message";
import { type AuditQuery, listAuditRecords } from "./audit-query-repository";

export interface AuditServiceDeps {
  db: Database;
  exports: ExportService;
}

const statusOf: Record<string, ExportStatus> = {
  QUEUED: ExportStatus.QUEUED,
  RUNNING: ExportStatus.RUNNING,
  SUCCEEDED: ExportStatus.SUCCEEDED,
  FAILED: ExportStatus.FAILED,
};

function queryOf(filter: AuditFilter | undefined): AuditQuery {
  const from = filter?.timeRange?.start ? timestampDate(filter.timeRange.start) : undefined;
  const to = filter?.timeRange?.end ? timestampDate(filter.timeRange.end) : undefined;
  if (from && to && from >= to) {
    throw invalidArgument("The time range must end after it starts.", [
      { field: "filter.time_range", message: "must end after it starts" },
    ]);
  }
  const text = (value: string | undefined) => value?.trim() || undefined;
  return {
    actorId: text(filter?.actorId),
    action: text(filter?.action),
    targetType: text(filter?.targetType),
    targetId: text(filter?.targetId),
    from,
    to,
  };
}

function formatOf(format: ExportFormat): ExportFormatName {
  if (format === ExportFormat.JSON_LINES) return "jsonl";
  if (format === ExportFormat.CSV || format === ExportFormat.UNSPECIFIED) return "csv";
  throw invalidArgument("An audit export is CSV or JSON_LINES.", [
    { field: "format", message: "must be CSV or JSON_LINES" },
  ]);
}

/** The tenant's audit log: its records, and exports of them (AUDIT_READ, administrators only). */
export function createAuditService(deps: AuditServiceDeps): ServiceImpl<typeof AuditService> {
  defineAuditExport(deps.exports, deps.db);
  return {
    async list(req, ctx: HandlerContext) {
      const caller = requireCaller(ctx);
      const window = pageWindow(req.pagination);
      const { rows, total } = await listAuditRecords(deps.db, caller.tenantId, queryOf(req.filter), window);
      return { items: rows.map(auditRecordMessage), pagination: pageResponse(total, window) };
    },

    async exportAsync(req, ctx) {
      const caller = requireCaller(ctx);
      const result = await deps.exports.exportLater({
        tenantId: caller.tenantId,
        kind: AUDIT_EXPORT,
        params: { ...auditExportParams(queryOf(req.filter)) },
        format: formatOf(req.format),
        createdBy: caller.id,
        ctx,
      });
      return { presignedUrl: result.presignedUrl, jobId: result.jobId };
    },

    async getExportStatus(req, ctx) {
      const caller = requireCaller(ctx);
      const jobId = req.jobId.trim();
      const found = jobId ? await deps.exports.status(caller.tenantId, AUDIT_EXPORT, jobId) : undefined;
      if (!found)
        throw new ConnectError("No such export in this tenant; start the export again.", Code.NotFound);
      return {
        status: statusOf[found.status] ?? ExportStatus.UNSPECIFIED,
        progress: found.progress,
        rows: found.rows,
        error: found.error,
      };
    },
  };
}

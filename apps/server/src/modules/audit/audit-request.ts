import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { AuditFilter } from "@palisade/api/gen/palisade/audit/v1/audit_pb";
import { ExportFormat } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { invalidArgument } from "../../rpc/errors";
import type { ExportFormatName } from "../export/export-api";
import type { AuditQuery } from "./audit-query-repository";

/** The query of an audit filter; a time range that ends before it starts is refused. */
export function queryOf(filter: AuditFilter | undefined): AuditQuery {
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

/** An audit export is CSV (the default) or JSON lines. */
export function formatOf(format: ExportFormat): ExportFormatName {
  if (format === ExportFormat.JSON_LINES) return "jsonl";
  if (format === ExportFormat.CSV || format === ExportFormat.UNSPECIFIED) return "csv";
  throw invalidArgument("An audit export is CSV or JSON_LINES.", [
    { field: "format", message: "must be CSV or JSON_LINES" },
  ]);
}

import type { Database } from "../../db/database";
import type { ExportService } from "../export/export-api";
import { type AuditQuery, auditRecordPages, countAuditRecords } from "./audit-query-repository";
import { chainRecordOf } from "./audit-repository";

export const AUDIT_EXPORT = "audit";

/** Columns of an audit export: the fields of `AuditChainRecord`, so a JSON Lines export verifies. */
const HEADER = [
  "id",
  "tenantId",
  "sequence",
  "occurredAt",
  "actorType",
  "actorId",
  "actorName",
  "actorSource",
  "ipAddress",
  "userAgent",
  "action",
  "targetType",
  "targetId",
  "targetName",
  "before",
  "after",
  "previousHash",
  "hash",
] as const;

/** The filter as the export job carries it (JSON: dates as ISO text). */
export interface AuditExportParams {
  actorId?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
  from?: string;
  to?: string;
}

export function auditExportParams(query: AuditQuery): AuditExportParams {
  return {
    ...query,
    from: query.from?.toISOString(),
    to: query.to?.toISOString(),
  };
}

function queryOf(params: AuditExportParams): AuditQuery {
  return {
    ...params,
    from: params.from ? new Date(params.from) : undefined,
    to: params.to ? new Date(params.to) : undefined,
  };
}

/** Registers the audit log's export: every record the filter selects, oldest first. */
export function defineAuditExport(exports: ExportService, db: Database): void {
  exports.define(AUDIT_EXPORT, async (tenantId, params) => {
    const query = queryOf(params as AuditExportParams);
    const total = await countAuditRecords(db, tenantId, query);
    async function* pages() {
      for await (const rows of auditRecordPages(db, tenantId, query)) {
        yield rows.map((row) => {
          const record = chainRecordOf(row);
          return HEADER.map((name) => record[name]);
        });
      }
    }
    return { header: [...HEADER], total, pages: pages() };
  });
}

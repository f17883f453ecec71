import type { ServiceImpl } from "@connectrpc/connect";
import type { AuditService } from "@palisade/api/gen/palisade/audit/v1/audit_pb";
import type { AuditServiceDeps } from "./audit-deps";
import { exportAsync } from "./rpc/export-async";
import { getExportStatus } from "./rpc/get-export-status";
import { list } from "./rpc/list";

/** The tenant's audit log: its records, and exports of them (AUDIT_READ, administrators only). */
export function createAuditService(deps: AuditServiceDeps): ServiceImpl<typeof AuditService> {
  return {
    list: (req, ctx) => list(deps, req, ctx),
    exportAsync: (req, ctx) => exportAsync(deps, req, ctx),
    getExportStatus: (req, ctx) => getExportStatus(deps, req, ctx),
  };
}

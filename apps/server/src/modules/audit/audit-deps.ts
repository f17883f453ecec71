import type { Database } from "../../db/database";
import type { ExportService } from "../export/export-api";

/** What the audit log's RPCs work with. */
export interface AuditServiceDeps {
  db: Database;
  exports: ExportService;
}

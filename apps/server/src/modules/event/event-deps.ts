import type { Database } from "../../db/database";
import type { JobQueue } from "../../jobs/job-queue";
import type { ExportService } from "../export/export-api";

/** What the PolicyEventStoreService methods work with. */
export interface EventServiceDeps {
  db: Database;
  /** Fetches are queued as jobs. */
  jobs: JobQueue;
  exports: ExportService;
}

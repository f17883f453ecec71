import type { JobDefinition, JobQueue } from "./job-queue";

export const EXPORT_JOB = "export.run";

export interface ExportPayload {
  /** Row of the `jobs` table that tracks the export and names its file. */
  jobId: string;
  tenantId: string;
  kind: string;
  params: Record<string, unknown>;
  format: "csv" | "json" | "jsonl";
}

/** Writes one export file; its signed link answers 404 until the file is complete. */
export function enqueueExport(jobs: JobQueue, payload: ExportPayload): Promise<string | null> {
  return jobs.send<ExportPayload>(EXPORT_JOB, payload);
}

export function exportWorker(deps: {
  exports: { run(payload: ExportPayload): Promise<void> };
}): JobDefinition<ExportPayload> {
  return {
    name: EXPORT_JOB,
    retryLimit: 3,
    expireInSeconds: 900,
    concurrency: 1,
    handler: ({ data }) => deps.exports.run(data),
  };
}

export const EXPORT_CLEANUP_JOB = "export.cleanup";
/** Every hour; one replica runs it. */
export const EXPORT_CLEANUP_CRON = "17 * * * *";
/** An export's link is valid 15 minutes; its file is kept a day for a late download through a new link. */
export const EXPORT_FILE_KEEP_MS = 24 * 3_600_000;

/** Deletes the files of exports written more than a day ago. */
export function exportCleanupWorker(deps: {
  exports: { deleteFilesBefore(before: Date): Promise<number> };
  now?: () => Date;
}): JobDefinition<object> {
  const now = deps.now ?? (() => new Date());
  return {
    name: EXPORT_CLEANUP_JOB,
    retryLimit: 1,
    expireInSeconds: 600,
    concurrency: 1,
    handler: async () => {
      await deps.exports.deleteFilesBefore(new Date(now().getTime() - EXPORT_FILE_KEEP_MS));
    },
  };
}

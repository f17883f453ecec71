import type { JobDefinition, JobQueue } from "./job-queue";

export const EXPORT_JOB = "export.run";

export interface ExportPayload {
  /** Row of the `jobs` table that tracks the export and names its file. */
  jobId: string;
  tenantId: string;
  kind: string;
  params: Record<string, unknown>;
  format: "csv" | "json";
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

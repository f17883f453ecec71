import { eq } from "drizzle-orm";
import type { Database } from "../../src/db/database";
import { jobs } from "../../src/jobs/jobs-schema";
import { waitFor } from "./poll";

/**
 * Waits until the job has finished (neither QUEUED nor RUNNING) and answers its row. A job's own
 * work (a connector's status, a bundle's) is written before the job is marked finished, so a test
 * that saw that work done still waits here before reading the job.
 */
export function finishedJob(db: Database, jobId: string, timeoutMs = 30_000) {
  return waitFor(
    `job ${jobId} to finish`,
    async () => {
      const [row] = await db.select().from(jobs).where(eq(jobs.id, jobId));
      return row && row.status !== "RUNNING" && row.status !== "QUEUED" ? row : undefined;
    },
    timeoutMs,
  );
}

/** Waits until the job has finished and answers its row; fails with the job's error unless it succeeded. */
export async function succeededJob(db: Database, jobId: string, timeoutMs = 30_000) {
  const row = await finishedJob(db, jobId, timeoutMs);
  if (row.status !== "SUCCEEDED")
    throw new Error(`job ${row.kind} ${row.status.toLowerCase()}: ${row.error}`);
  return row;
}

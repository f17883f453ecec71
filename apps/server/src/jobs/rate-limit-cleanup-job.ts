import type { JobDefinition } from "./job-queue";

export const RATE_LIMIT_CLEANUP_JOB = "rate-limits.cleanup";
/** Every ten minutes; one replica runs it. */
export const RATE_LIMIT_CLEANUP_CRON = "*/10 * * * *";
/** A bucket untouched this long is full again, so forgetting it changes no verdict. */
export const IDLE_BUCKET_SECONDS = 3600;

/** Deletes the rate-limit buckets nobody has used for an hour. */
export function rateLimitCleanupWorker(deps: {
  deleteIdle: (olderThanSeconds: number) => Promise<void>;
}): JobDefinition<object> {
  return {
    name: RATE_LIMIT_CLEANUP_JOB,
    retryLimit: 1,
    expireInSeconds: 120,
    concurrency: 1,
    handler: () => deps.deleteIdle(IDLE_BUCKET_SECONDS),
  };
}

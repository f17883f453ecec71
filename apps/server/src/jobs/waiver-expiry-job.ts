import type { Logger } from "../logger";
import type { JobDefinition, JobQueue } from "./job-queue";

export const WAIVER_EXPIRY_JOB = "waiver.expire";
/**
 * The sweep runs every minute, once at start-up (a waiver due while the server was down expires
 * then), and at each waiver's own expiry time.
 */
export const WAIVER_EXPIRY_CRON = "* * * * *";

/** Queues the expiry sweep, at once or for the moment an activated waiver runs out. */
export async function enqueueWaiverExpiry(
  jobs: JobQueue,
  options: { startAfter?: Date } = {},
): Promise<void> {
  await jobs.send(WAIVER_EXPIRY_JOB, {}, options);
}

export function waiverExpiryWorker(deps: {
  /** Expires the waivers that are due; returns how many it expired. */
  expireDue: () => Promise<number>;
  logger: Logger;
}): JobDefinition<object> {
  return {
    name: WAIVER_EXPIRY_JOB,
    retryLimit: 3,
    expireInSeconds: 120,
    concurrency: 1,
    handler: async () => {
      const expired = await deps.expireDue();
      if (expired > 0) deps.logger.info({ component: "waivers", expired }, "waivers expired");
    },
  };
}

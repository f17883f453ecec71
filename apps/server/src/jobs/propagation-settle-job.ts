import type { Logger } from "../logger";
import type { JobDefinition, JobQueue } from "./job-queue";

export const PROPAGATION_SETTLE_JOB = "propagation.settle";
/**
 * The sweep runs every minute, once at start-up (a propagation that ended while the server was
 * down is settled then), and at the end of each propagation.
 */
export const PROPAGATION_SETTLE_CRON = "* * * * *";

/** Queues the sweep, at once or for the moment a propagation ends. */
export async function enqueuePropagationSettle(
  jobs: JobQueue,
  options: { startAfter?: Date } = {},
): Promise<void> {
  await jobs.send(PROPAGATION_SETTLE_JOB, {}, options);
}

export function propagationSettleWorker(deps: {
  /** Shows as enforced what the cloud has had long enough to enforce; returns how many changed. */
  settleDue: () => Promise<number>;
  logger: Logger;
}): JobDefinition<object> {
  return {
    name: PROPAGATION_SETTLE_JOB,
    retryLimit: 3,
    expireInSeconds: 120,
    concurrency: 1,
    handler: async () => {
      const settled = await deps.settleDue();
      if (settled > 0) deps.logger.info({ component: "propagation", settled }, "cloud now enforces");
    },
  };
}

import type { Logger } from "../logger";
import type { JobDefinition } from "./job-queue";

export const EVENT_RETENTION_JOB = "events.retention";
/** Once a day, at a quiet hour (UTC). */
export const EVENT_RETENTION_CRON = "40 3 * * *";
const DAY_MS = 86_400_000;

/** Deletes every tenant's events older than its retention setting. */
export function eventRetentionWorker(deps: {
  listRetentions: () => Promise<{ tenantId: string; days: number }[]>;
  purge: (tenantId: string, cutoff: Date) => Promise<number>;
  logger: Logger;
  now?: () => Date;
}): JobDefinition<object> {
  return {
    name: EVENT_RETENTION_JOB,
    retryLimit: 3,
    expireInSeconds: 3600,
    concurrency: 1,
    handler: async () => {
      const now = (deps.now ?? (() => new Date()))();
      for (const { tenantId, days } of await deps.listRetentions()) {
        const deleted = await deps.purge(tenantId, new Date(now.getTime() - days * DAY_MS));
        if (deleted > 0)
          deps.logger.info({ component: "events", tenantId, deleted, days }, "old events deleted");
      }
    },
  };
}

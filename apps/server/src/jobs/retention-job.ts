import type { Logger } from "../logger";
import type { JobDefinition } from "./job-queue";

export const EVENT_RETENTION_JOB = "events.retention";
export const AUDIT_RETENTION_JOB = "audit.retention";
/** Once a day, at a quiet hour (UTC). */
export const EVENT_RETENTION_CRON = "40 3 * * *";
export const AUDIT_RETENTION_CRON = "50 3 * * *";
const DAY_MS = 86_400_000;

interface RetentionDeps {
  listRetentions: () => Promise<{ tenantId: string; days: number }[]>;
  purge: (tenantId: string, cutoff: Date) => Promise<number>;
  logger: Logger;
  now?: () => Date;
}

/** Deletes every tenant's rows of one kind older than its retention setting for them. */
function retentionWorker(name: string, component: string, deps: RetentionDeps): JobDefinition<object> {
  return {
    name,
    retryLimit: 3,
    expireInSeconds: 3600,
    concurrency: 1,
    handler: async () => {
      const now = (deps.now ?? (() => new Date()))();
      for (const { tenantId, days } of await deps.listRetentions()) {
        const deleted = await deps.purge(tenantId, new Date(now.getTime() - days * DAY_MS));
        if (deleted > 0)
          deps.logger.info({ component, tenantId, deleted, days }, `old ${component} records deleted`);
      }
    },
  };
}

/** Deletes every tenant's events older than its retention setting. */
export function eventRetentionWorker(deps: RetentionDeps): JobDefinition<object> {
  return retentionWorker(EVENT_RETENTION_JOB, "events", deps);
}

/**
 * Deletes every tenant's audit records older than its audit retention, oldest first: the records
 * kept still verify as a chain from the oldest one's stored previous hash.
 */
export function auditRetentionWorker(deps: RetentionDeps): JobDefinition<object> {
  return retentionWorker(AUDIT_RETENTION_JOB, "audit", deps);
}

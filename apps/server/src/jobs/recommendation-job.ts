import type { Logger } from "../logger";
import type { JobDefinition, JobQueue } from "./job-queue";

export const RECOMMENDATION_JOB = "recommendations.compute";
/** Daily, besides the recomputations after event fetches and the ones members ask for. */
export const RECOMMENDATION_CRON = "23 4 * * *";
/** After an event fetch, a tenant's recommendations are recomputed at most this often. */
export const RECOMPUTE_AFTER_FETCH_MS = 10 * 60_000;

export interface RecommendationPayload {
  /** Absent: every tenant with a connected cloud (the daily run). */
  tenantId?: string;
}

export function enqueueRecommendations(
  jobs: JobQueue,
  payload: RecommendationPayload,
): Promise<string | null> {
  return jobs.send<RecommendationPayload>(RECOMMENDATION_JOB, payload);
}

/**
 * Recomputes recommendations: for one tenant, or queues one job per tenant with a connected
 * cloud. Idempotent: findings are stored by their keys.
 */
export function recommendationWorker(deps: {
  jobs: JobQueue;
  compute: (tenantId: string) => Promise<unknown>;
  listTenants: () => Promise<string[]>;
  logger: Logger;
}): JobDefinition<RecommendationPayload> {
  return {
    name: RECOMMENDATION_JOB,
    retryLimit: 2,
    retryDelaySeconds: 30,
    expireInSeconds: 600,
    concurrency: 1,
    handler: async ({ data }) => {
      if (data.tenantId) {
        await deps.compute(data.tenantId);
        return;
      }
      for (const tenantId of await deps.listTenants()) await enqueueRecommendations(deps.jobs, { tenantId });
    },
  };
}

/**
 * Queues a tenant's recomputation after its clouds' events were fetched, at most once per
 * interval per tenant in this process (fetches run every minute).
 */
export function createFetchTrigger(jobs: JobQueue, intervalMs = RECOMPUTE_AFTER_FETCH_MS) {
  const last = new Map<string, number>();
  return async (tenantId: string) => {
    const now = Date.now();
    if (now - (last.get(tenantId) ?? 0) < intervalMs) return;
    last.set(tenantId, now);
    await enqueueRecommendations(jobs, { tenantId });
  };
}

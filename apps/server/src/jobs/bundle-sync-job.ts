import type { JobDefinition, JobQueue } from "./job-queue";

export const BUNDLE_SYNC_JOB = "deployment.bundle-sync";

/** Attempts after the first; the last one records a transient cloud failure instead of retrying. */
export const BUNDLE_RETRY_LIMIT = 6;

/** How deployments ride out an unreachable or throttling cloud. */
export interface CloudRetry {
  /** Attempts of a sync after the first, with backoff from `delaySeconds`. */
  limit: number;
  delaySeconds: number;
  /**
   * After the last attempt the deployment is FAILED (DEPLOYMENT_SYNC_FAILED) and a new sync is
   * queued after this many seconds, doubling each time up to 10 minutes, until the cloud answers.
   */
  failedRetrySeconds: number;
}

export const DEFAULT_CLOUD_RETRY: CloudRetry = {
  limit: BUNDLE_RETRY_LIMIT,
  delaySeconds: 2,
  failedRetrySeconds: 30,
};

export interface BundleSyncPayload {
  bundleId: string;
  tenantId: string;
  /** Why the bundle is re-applied (waiver activated, waiver expired, bundle updated…); logged. */
  reason: string;
  /** How many times the bundle already failed for an unreachable cloud in a row. */
  failedRounds?: number;
}

/** What applies a bundle to the cloud (the bundle engine). */
export interface BundleSyncer {
  syncBundle(tenantId: string, bundleId: string, options: { lastAttempt: boolean }): Promise<void>;
  cloudUnreachable(tenantId: string, bundleId: string): Promise<boolean>;
}

/**
 * Queues a job that compiles the bundle with its enforceable waivers and applies the result to the
 * cloud. Waivers it applied get `deployment_status = 'ACTIVE'`; those it could not, `FAILED` with
 * an error code. Returns the queued job's id.
 */
export async function enqueueBundleSync(
  jobs: JobQueue,
  payload: BundleSyncPayload,
  startAfter?: Date,
): Promise<string | null> {
  return jobs.send(BUNDLE_SYNC_JOB, payload, { startAfter });
}

export function bundleSyncWorker(deps: {
  engine: BundleSyncer;
  jobs: JobQueue;
  retry?: CloudRetry;
}): JobDefinition<BundleSyncPayload> {
  const retry = deps.retry ?? DEFAULT_CLOUD_RETRY;
  return {
    name: BUNDLE_SYNC_JOB,
    retryLimit: retry.limit,
    retryDelaySeconds: retry.delaySeconds,
    retryDelayMaxSeconds: 120,
    expireInSeconds: 300,
    concurrency: 4,
    async handler({ data, retryCount }) {
      const lastAttempt = retryCount >= retry.limit;
      await deps.engine.syncBundle(data.tenantId, data.bundleId, { lastAttempt });
      if (!lastAttempt || !(await deps.engine.cloudUnreachable(data.tenantId, data.bundleId))) return;
      // FAILED for now; it converges by itself once the cloud answers again.
      const rounds = data.failedRounds ?? 0;
      const seconds = Math.min(retry.failedRetrySeconds * 2 ** rounds, 600);
      await enqueueBundleSync(
        deps.jobs,
        { ...data, reason: "the cloud could not be reached", failedRounds: rounds + 1 },
        new Date(Date.now() + seconds * 1000),
      );
    },
  };
}

import type { JobDefinition, JobQueue } from "./job-queue";

export const BUNDLE_SYNC_JOB = "deployment.bundle-sync";

/** Attempts after the first; the last one records a transient cloud failure instead of retrying. */
export const BUNDLE_RETRY_LIMIT = 6;

export interface BundleSyncPayload {
  bundleId: string;
  tenantId: string;
  /** Why the bundle is re-applied (waiver activated, waiver expired, bundle updated…); logged. */
  reason: string;
}

/** What applies a bundle to the cloud (the bundle engine). */
export interface BundleSyncer {
  syncBundle(tenantId: string, bundleId: string, options: { lastAttempt: boolean }): Promise<void>;
}

/**
 * Queues a job that compiles the bundle with its enforceable waivers and applies the result to the
 * cloud. Waivers it applied get `deployment_status = 'ACTIVE'`; those it could not, `FAILED` with
 * an error code. Returns the queued job's id.
 */
export async function enqueueBundleSync(jobs: JobQueue, payload: BundleSyncPayload): Promise<string | null> {
  return jobs.send(BUNDLE_SYNC_JOB, payload);
}

export function bundleSyncWorker(deps: { engine: BundleSyncer }): JobDefinition<BundleSyncPayload> {
  return {
    name: BUNDLE_SYNC_JOB,
    retryLimit: BUNDLE_RETRY_LIMIT,
    retryDelaySeconds: 2,
    retryDelayMaxSeconds: 120,
    expireInSeconds: 300,
    concurrency: 4,
    handler: ({ data, retryCount }) =>
      deps.engine.syncBundle(data.tenantId, data.bundleId, { lastAttempt: retryCount >= BUNDLE_RETRY_LIMIT }),
  };
}

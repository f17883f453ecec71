import { type CloudRetry, DEFAULT_CLOUD_RETRY } from "./bundle-sync-job";
import type { JobDefinition, JobQueue } from "./job-queue";

export const BUNDLE_DELETE_JOB = "deployment.bundle-delete";

export interface BundleDeletePayload {
  bundleId: string;
  tenantId: string;
}

/** What removes a deleted bundle from the cloud (the bundle engine). */
export interface BundleRemover {
  removeBundle(tenantId: string, bundleId: string, options: { lastAttempt: boolean }): Promise<void>;
}

/** Queues the removal of a deleted bundle's policies, assignments and exemptions from the cloud. */
export async function enqueueBundleDelete(
  jobs: JobQueue,
  payload: BundleDeletePayload,
): Promise<string | null> {
  return jobs.send(BUNDLE_DELETE_JOB, payload);
}

export function bundleDeleteWorker(deps: {
  engine: BundleRemover;
  retry?: CloudRetry;
}): JobDefinition<BundleDeletePayload> {
  const retry = deps.retry ?? DEFAULT_CLOUD_RETRY;
  return {
    name: BUNDLE_DELETE_JOB,
    retryLimit: retry.limit,
    retryDelaySeconds: retry.delaySeconds,
    retryDelayMaxSeconds: 120,
    expireInSeconds: 300,
    handler: ({ data, retryCount }) =>
      deps.engine.removeBundle(data.tenantId, data.bundleId, {
        lastAttempt: retryCount >= retry.limit,
      }),
  };
}

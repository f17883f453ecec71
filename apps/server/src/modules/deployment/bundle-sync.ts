import type { JobQueue } from "../../jobs/job-queue";

export const BUNDLE_SYNC_JOB = "deployment.bundle-sync";

export interface BundleSyncRequest {
  bundleId: string;
  tenantId: string;
  /** Why the bundle is re-applied (waiver activated, waiver expired, bundle updated…); logged. */
  reason: string;
}

/**
 * Queues a job that compiles the bundle with its enforceable waivers and applies the result to the
 * cloud. Waivers it applied get `deployment_status = 'ACTIVE'`; those it could not, `FAILED` with
 * an error code. Returns the queued job's id.
 */
export async function enqueueBundleSync(jobs: JobQueue, request: BundleSyncRequest): Promise<string | null> {
  return jobs.send(BUNDLE_SYNC_JOB, request);
}

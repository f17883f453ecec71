import type { JobQueue } from "../../jobs/job-queue";
import type { BundleEngine } from "./bundle-engine";

export const BUNDLE_SYNC_JOB = "deployment.bundle-sync";
export const BUNDLE_DELETE_JOB = "deployment.bundle-delete";
export const RECONCILE_JOB = "deployment.reconcile";
/** Reconcile compares every bundle with the cloud this often. */
export const RECONCILE_CRON = "*/5 * * * *";

const RETRY_LIMIT = 6;

export interface BundleSyncRequest {
  bundleId: string;
  tenantId: string;
  /** Why the bundle is re-applied (waiver activated, waiver expired, bundle updated…); logged. */
  reason: string;
}

export interface ReconcileRequest {
  /** Absent: every tenant. */
  tenantId?: string;
  bundleId?: string;
}

/**
 * Queues a job that compiles the bundle with its enforceable waivers and applies the result to the
 * cloud. Waivers it applied get `deployment_status = 'ACTIVE'`; those it could not, `FAILED` with
 * an error code. Returns the queued job's id.
 */
export async function enqueueBundleSync(jobs: JobQueue, request: BundleSyncRequest): Promise<string | null> {
  return jobs.send(BUNDLE_SYNC_JOB, request);
}

export async function enqueueBundleDelete(
  jobs: JobQueue,
  request: { bundleId: string; tenantId: string },
): Promise<string | null> {
  return jobs.send(BUNDLE_DELETE_JOB, request);
}

export async function enqueueReconcile(jobs: JobQueue, request: ReconcileRequest): Promise<string | null> {
  return jobs.send(RECONCILE_JOB, request);
}

/**
 * Registers the deployment jobs and the reconcile schedule, and queues a reconcile at once so that
 * work interrupted by a crash (a deployment left PENDING or EVALUATING) finishes after a restart.
 */
export async function registerDeploymentJobs(jobs: JobQueue, engine: BundleEngine): Promise<void> {
  const lastAttempt = (retryCount: number) => retryCount >= RETRY_LIMIT;
  await jobs.register<BundleSyncRequest>({
    name: BUNDLE_SYNC_JOB,
    retryLimit: RETRY_LIMIT,
    retryDelaySeconds: 2,
    retryDelayMaxSeconds: 120,
    expireInSeconds: 300,
    concurrency: 4,
    handler: ({ data, retryCount }) =>
      engine.syncBundle(data.tenantId, data.bundleId, { lastAttempt: lastAttempt(retryCount) }),
  });
  await jobs.register<{ bundleId: string; tenantId: string }>({
    name: BUNDLE_DELETE_JOB,
    retryLimit: RETRY_LIMIT,
    retryDelaySeconds: 2,
    retryDelayMaxSeconds: 120,
    expireInSeconds: 300,
    handler: ({ data, retryCount }) =>
      engine.removeBundle(data.tenantId, data.bundleId, { lastAttempt: lastAttempt(retryCount) }),
  });
  await jobs.register<ReconcileRequest>({
    name: RECONCILE_JOB,
    retryLimit: 3,
    retryDelaySeconds: 10,
    expireInSeconds: 900,
    concurrency: 1,
    handler: ({ data, retryCount }) => engine.reconcile(data ?? {}, { lastAttempt: retryCount >= 3 }),
  });
  await jobs.schedule(RECONCILE_JOB, RECONCILE_CRON, {});
  await enqueueReconcile(jobs, {});
}

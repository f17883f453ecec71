import type { JobDefinition, JobQueue } from "./job-queue";

export const RECONCILE_JOB = "deployment.reconcile";
/** Reconcile compares every bundle with the cloud this often. */
export const RECONCILE_CRON = "*/5 * * * *";

const RETRY_LIMIT = 3;

export interface ReconcilePayload {
  /** Absent: every tenant. */
  tenantId?: string;
  bundleId?: string;
}

/** What compares the cloud with the database and repairs it (the bundle engine). */
export interface Reconciler {
  reconcile(filter: ReconcilePayload, options: { lastAttempt: boolean }): Promise<void>;
}

export async function enqueueReconcile(jobs: JobQueue, payload: ReconcilePayload): Promise<string | null> {
  return jobs.send(RECONCILE_JOB, payload);
}

export function reconcileWorker(deps: { engine: Reconciler }): JobDefinition<ReconcilePayload> {
  return {
    name: RECONCILE_JOB,
    retryLimit: RETRY_LIMIT,
    retryDelaySeconds: 10,
    expireInSeconds: 900,
    concurrency: 1,
    handler: ({ data, retryCount }) =>
      deps.engine.reconcile(data ?? {}, { lastAttempt: retryCount >= RETRY_LIMIT }),
  };
}

import type { Database } from "../db/database";
import type { Logger } from "../logger";
import type { BundleEngine } from "../modules/deployment/bundle-engine";
import { expireDueWaivers } from "../modules/waiver/waiver-lifecycle";
import { bundleDeleteWorker } from "./bundle-delete-job";
import { bundleSyncWorker } from "./bundle-sync-job";
import type { JobQueue } from "./job-queue";
import { enqueueReconcile, RECONCILE_CRON, RECONCILE_JOB, reconcileWorker } from "./reconcile-job";
import {
  enqueueWaiverExpiry,
  WAIVER_EXPIRY_CRON,
  WAIVER_EXPIRY_JOB,
  waiverExpiryWorker,
} from "./waiver-expiry-job";

export interface WorkerDeps {
  db: Database;
  logger: Logger;
  /** Applies bundles to the cloud: deploy, delete and reconcile jobs. */
  engine: BundleEngine;
}

/**
 * Registers every background worker and schedule. Work interrupted by a crash (a deployment left
 * PENDING or EVALUATING, a waiver due while the server was down) is queued once at start-up.
 */
export async function registerWorkers(jobs: JobQueue, deps: WorkerDeps): Promise<void> {
  const { db, logger, engine } = deps;

  await jobs.register(bundleSyncWorker({ engine }));
  await jobs.register(bundleDeleteWorker({ engine }));
  await jobs.register(reconcileWorker({ engine }));
  await jobs.schedule(RECONCILE_JOB, RECONCILE_CRON, {});
  await enqueueReconcile(jobs, {});

  await jobs.register(waiverExpiryWorker({ expireDue: () => expireDueWaivers({ db, jobs }), logger }));
  await jobs.schedule(WAIVER_EXPIRY_JOB, WAIVER_EXPIRY_CRON);
  await enqueueWaiverExpiry(jobs);
}

import type { Database } from "../../db/database";
import type { JobQueue } from "../../jobs/job-queue";
import type { Logger } from "../../logger";
import { enqueueBundleSync } from "../deployment/bundle-sync";
import { dueWaivers, expireWaivers, writeSystemAudit } from "./waiver-repository";

export const WAIVER_EXPIRY_JOB = "waiver.expire";

/**
 * Expires every active waiver whose time is up and takes it out of the cloud. Runs every
 * minute, once at start-up (a waiver due while the server was down expires then), and at each
 * waiver's own expiry time. Re-running it is harmless: only still-ACTIVE due waivers change.
 */
export async function expireDueWaivers(
  deps: { db: Database; jobs: JobQueue },
  now = new Date(),
): Promise<number> {
  const { db, jobs } = deps;
  const due = await dueWaivers(db, now);
  if (due.length === 0) return 0;
  // The bundle sync only applies waivers that are ACTIVE and unexpired, so queueing it before
  // the status changes is safe, and a crash between the two steps still re-syncs next run.
  const bundles = new Map(due.map((w) => [w.bundleId, w.tenantId]));
  for (const [bundleId, tenantId] of bundles) {
    await enqueueBundleSync(jobs, { bundleId, tenantId, reason: "waiver expired" });
  }
  const expired = new Set(
    await expireWaivers(
      db,
      due.map((w) => w.id),
      now,
    ),
  );
  for (const waiver of due) {
    if (!expired.has(waiver.id)) continue;
    await writeSystemAudit(db, {
      tenantId: waiver.tenantId,
      action: "WaiverService.Expire",
      targetId: waiver.id,
      details: { policyKey: waiver.policyKey, expiresAt: waiver.expiresAt?.toISOString() },
    });
  }
  return expired.size;
}

export async function startWaiverExpiry(deps: {
  db: Database;
  jobs: JobQueue;
  logger: Logger;
}): Promise<void> {
  const { jobs, logger } = deps;
  await jobs.register<object>({
    name: WAIVER_EXPIRY_JOB,
    retryLimit: 3,
    expireInSeconds: 120,
    concurrency: 1,
    handler: async () => {
      const expired = await expireDueWaivers(deps);
      if (expired > 0) logger.info({ component: "waivers", expired }, "waivers expired");
    },
  });
  await jobs.schedule(WAIVER_EXPIRY_JOB, "* * * * *");
  await jobs.send(WAIVER_EXPIRY_JOB, {});
}

/** Queues the expiry sweep for the moment an activated waiver runs out. */
export async function scheduleExpiry(jobs: JobQueue, expiresAt: Date): Promise<void> {
  await jobs.send(WAIVER_EXPIRY_JOB, {}, { startAfter: expiresAt });
}

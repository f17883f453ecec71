import { Code, ConnectError } from "@connectrpc/connect";
import { waiverWindowEnd } from "@palisade/policy-engine/compilers/aws/waiver-window";
import type { Database, Transaction } from "../../db/database";
import { enqueueBundleSync } from "../../jobs/bundle-sync-job";
import type { JobQueue } from "../../jobs/job-queue";
import { enqueueExpiryNotice, enqueueNotification } from "../../jobs/notification-job";
import { enqueueWaiverExpiry } from "../../jobs/waiver-expiry-job";
import { recordSystemAudit } from "../audit/audit-api";
import { findBundleOfWaiver, maxWaiverHours } from "./waiver-context-repository";
import {
  type BundleRow,
  cancelOpenWaiversOfBundle,
  dueWaiversAnyTenant,
  findWaiver,
  lockBundleForWaivers,
  openWaiversOfKey,
  setWaiverDeploymentStatus,
  transitionWaiver,
  type WaiverInsert,
  type WaiverView,
} from "./waiver-repository";
import { refusedTransition, type WaiverStatusName } from "./waiver-rules";
import { expireWaiversAnyTenant, settlePropagatedWaiversAnyTenant } from "./waiver-sweep-repository";

// The one writer of waivers: PENDING -> ACTIVE | REJECTED | CANCELLED, ACTIVE -> EXPIRED |
// CANCELLED, and what the cloud did with each. Every change that can alter what the cloud
// enforces queues a sync of the bundle; every activation queues the expiry sweep for its end.

/** A waiver about to be acknowledged, as the fit check sees it. */
export interface ProposedWaiver {
  deploymentId: string;
  scope: string | null;
  resource: string | null;
  principalArn: string | null;
  expiresAt: Date;
  requesterIdentifier: string;
}

/**
 * Refuses (throws) when the bundle's policy, with these waivers added, would not fit what the
 * cloud allows, or (with `share`) when their requester would hold more than their share of its
 * waiver space; called under the bundle's waiver lock before anything is stored.
 */
export type WaiverFitCheck = (
  db: Database,
  bundle: BundleRow,
  proposed: ProposedWaiver[],
  options: { share: boolean },
) => Promise<void>;

/** What changes that only take waivers out of the cloud need. */
export interface WaiverSyncDeps {
  db: Database;
  jobs: JobQueue;
}

/** Changes that put waivers into the cloud also check that they fit. */
export interface WaiverLifecycleDeps extends WaiverSyncDeps {
  fits: WaiverFitCheck;
}

/**
 * When an approved waiver ends. On AWS its end is rounded up to a shared window, so waivers
 * approved near each other share one set of statements in the SCP and more of them fit; Azure
 * exemptions carry their own `expiresOn` and end when asked.
 */
export function waiverEnd(provider: string, start: Date, durationSeconds: number): Date {
  return provider === "aws"
    ? waiverWindowEnd(start, durationSeconds * 1_000)
    : new Date(start.getTime() + durationSeconds * 1_000);
}

/** Who decided on a waiver. */
export interface Reviewer {
  name: string;
  identifier: string;
}

/** How long the tenant lets a waiver last, in hours. */
export async function tenantMaxWaiverHours(db: Database, tenantId: string): Promise<number> {
  return (await maxWaiverHours(db, tenantId)) ?? 72;
}

export function waiverNotFound(): ConnectError {
  return new ConnectError("No waiver with this id in this tenant.", Code.NotFound);
}

/** Writes a decision's audit record in the decision's transaction. */
export type AuditDecision = (tx: Transaction, updated: WaiverView) => Promise<void>;

/** Moves one waiver to `to` and audits it in one transaction, or answers why it cannot. */
async function auditedTransition(
  db: Database,
  waiver: WaiverView,
  to: WaiverStatusName,
  changes: Partial<WaiverInsert>,
  audit: AuditDecision | undefined,
): Promise<WaiverView> {
  if (!audit) return transition(db, waiver.tenantId, waiver, to, changes);
  return db.transaction(async (tx) => {
    const updated = await transition(tx, waiver.tenantId, waiver, to, changes);
    await audit(tx, updated);
    return updated;
  });
}

/** Moves one waiver to `to`, or answers why it cannot. */
async function transition(
  db: Database,
  tenantId: string,
  waiver: WaiverView,
  to: WaiverStatusName,
  changes: Partial<WaiverInsert> = {},
): Promise<WaiverView> {
  const from = waiver.status as WaiverStatusName;
  const refused = refusedTransition(from, to);
  if (refused) throw new ConnectError(refused, Code.FailedPrecondition);
  if (!(await transitionWaiver(db, tenantId, waiver.id, from, { ...changes, status: to }))) {
    const now = await findWaiver(db, tenantId, waiver.id);
    if (!now) throw waiverNotFound();
    throw new ConnectError(
      refusedTransition(now.status as WaiverStatusName, to) ??
        `The waiver changed to ${now.status} while this request was processed; try again.`,
      Code.FailedPrecondition,
    );
  }
  const updated = await findWaiver(db, tenantId, waiver.id);
  if (!updated) throw waiverNotFound();
  return updated;
}

async function syncBundleOf(jobs: JobQueue, waiver: { bundleId: string; tenantId: string }, reason: string) {
  await enqueueBundleSync(jobs, { bundleId: waiver.bundleId, tenantId: waiver.tenantId, reason });
}

function reviewed(reviewer: Reviewer, now: Date): Partial<WaiverInsert> {
  return { reviewerName: reviewer.name, reviewerIdentifier: reviewer.identifier, reviewedAt: now };
}

/**
 * Approves a pending waiver: it runs for its duration from now (to the end of its window on AWS),
 * once the fit check found room for it in the cloud's policy.
 */
export async function approveWaiver(
  deps: WaiverLifecycleDeps,
  waiver: WaiverView,
  reviewer: Reviewer,
  audit?: AuditDecision,
): Promise<WaiverView> {
  const now = new Date();
  const expiresAt = waiverEnd(waiver.provider, now, waiver.durationSeconds);
  const updated = await deps.db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    await lockBundleForWaivers(tx, waiver.bundleId);
    const bundle = await findBundleOfWaiver(tx, waiver.tenantId, waiver.bundleId);
    // A reviewer's approval is a decision on this waiver: only the room in the cloud limits it.
    if (bundle) await deps.fits(tx, bundle, [{ ...waiver, expiresAt }], { share: false });
    const approved = await transition(tx, waiver.tenantId, waiver, "ACTIVE", {
      ...reviewed(reviewer, now),
      expiresAt,
      deploymentStatus: "PENDING",
      errorCode: null,
    });
    await audit?.(txn, approved);
    return approved;
  });
  await syncBundleOf(deps.jobs, updated, "waiver approved");
  await enqueueWaiverExpiry(deps.jobs, { startAfter: expiresAt });
  await enqueueNotification(deps.jobs, {
    kind: "waiver.decided",
    tenantId: updated.tenantId,
    waiverId: updated.id,
  });
  await enqueueExpiryNotice(deps.jobs, { tenantId: updated.tenantId, id: updated.id, expiresAt });
  return updated;
}

export async function rejectWaiver(
  deps: WaiverSyncDeps,
  waiver: WaiverView,
  reviewer: Reviewer,
  audit?: AuditDecision,
): Promise<WaiverView> {
  const updated = await auditedTransition(deps.db, waiver, "REJECTED", reviewed(reviewer, new Date()), audit);
  await syncBundleOf(deps.jobs, updated, "waiver rejected");
  await enqueueNotification(deps.jobs, {
    kind: "waiver.decided",
    tenantId: updated.tenantId,
    waiverId: updated.id,
  });
  return updated;
}

export async function cancelWaiver(
  deps: WaiverSyncDeps,
  waiver: WaiverView,
  reason = "waiver cancelled",
  audit?: AuditDecision,
): Promise<WaiverView> {
  const cancelled = await auditedTransition(deps.db, waiver, "CANCELLED", {}, audit);
  await syncBundleOf(deps.jobs, cancelled, reason);
  return cancelled;
}

/** Cancels every open waiver of a key; returns each cancelled waiver with the status it left. */
export async function cancelOpenWaiversOfKey(
  deps: WaiverSyncDeps,
  tenantId: string,
  key: string,
  audit: AuditDecision,
): Promise<{ waiver: WaiverView; from: WaiverStatusName }[]> {
  const cancelled: { waiver: WaiverView; from: WaiverStatusName }[] = [];
  await deps.db.transaction(async (tx) => {
    for (const waiver of await openWaiversOfKey(tx, tenantId, key)) {
      const from = waiver.status as WaiverStatusName;
      // A waiver that expired meanwhile is simply not among the cancelled ones.
      if (!(await transitionWaiver(tx, tenantId, waiver.id, from, { status: "CANCELLED" }))) continue;
      const updated = await findWaiver(tx, tenantId, waiver.id);
      if (!updated) continue;
      await audit(tx, updated);
      cancelled.push({ waiver: updated, from });
    }
  });
  for (const bundleId of new Set(cancelled.map((c) => c.waiver.bundleId))) {
    await syncBundleOf(deps.jobs, { bundleId, tenantId }, "waivers cancelled");
  }
  return cancelled;
}

/** The bundle is going away: its open waivers end with it (its removal takes them out of the cloud). */
export async function cancelWaiversOfBundle(db: Database, tenantId: string, bundleId: string): Promise<void> {
  await cancelOpenWaiversOfBundle(db, tenantId, bundleId);
}

/**
 * Expires every active waiver whose time is up and takes it out of the cloud. Re-running it is
 * harmless: only still-ACTIVE due waivers change.
 */
export async function expireDueWaivers(deps: WaiverSyncDeps, now = new Date()): Promise<number> {
  const { db, jobs } = deps;
  const due = await dueWaiversAnyTenant(db, now);
  if (due.length === 0) return 0;
  // The bundle sync only applies waivers that are ACTIVE and unexpired, so queueing it before
  // the status changes is safe, and a crash between the two steps still re-syncs next run.
  const bundles = new Map(due.map((w) => [w.bundleId, w.tenantId]));
  for (const [bundleId, tenantId] of bundles) {
    await syncBundleOf(jobs, { bundleId, tenantId }, "waiver expired");
  }
  return db.transaction(async (tx) => {
    const expired = new Set(
      await expireWaiversAnyTenant(
        tx,
        due.map((w) => w.id),
        now,
      ),
    );
    for (const waiver of due) {
      if (!expired.has(waiver.id)) continue;
      await recordSystemAudit(tx, waiver.tenantId, "WaiverService.Expire", {
        target: { type: "waiver", id: waiver.id, name: waiver.policyKey },
        before: { status: "ACTIVE" },
        after: { status: "EXPIRED", policyKey: waiver.policyKey, expiresAt: waiver.expiresAt },
      });
    }
    return expired.size;
  });
}

/** The cloud enforces these waivers now. */
export async function markWaiversEnforced(db: Database, tenantId: string, ids: string[]): Promise<void> {
  await setWaiverDeploymentStatus(db, tenantId, ids, {
    deploymentStatus: "ACTIVE",
    errorCode: null,
    propagationEndsAt: null,
  });
}

/** The cloud has these waivers and honours them from `endsAt` (an Azure exemption propagating). */
export async function markWaiversPropagating(
  db: Database,
  tenantId: string,
  ids: string[],
  endsAt: Date,
): Promise<void> {
  await setWaiverDeploymentStatus(db, tenantId, ids, {
    deploymentStatus: "PROPAGATING",
    errorCode: null,
    propagationEndsAt: endsAt,
  });
}

/** Waivers whose propagation has ended are honoured by the cloud now (every tenant: the settle job). */
export async function markPropagatedWaiversEnforced(db: Database, now: Date): Promise<number> {
  return settlePropagatedWaiversAnyTenant(db, now);
}

/** These waivers left the cloud again; their own status says why. */
export async function markWaiversWithdrawn(db: Database, tenantId: string, ids: string[]): Promise<void> {
  await setWaiverDeploymentStatus(db, tenantId, ids, {
    deploymentStatus: "PENDING",
    errorCode: null,
    propagationEndsAt: null,
  });
}

/** The cloud could not take these waivers, for the reason the code names. */
export async function markWaiversFailed(
  db: Database,
  tenantId: string,
  ids: string[],
  code: string,
): Promise<void> {
  await setWaiverDeploymentStatus(db, tenantId, ids, {
    deploymentStatus: "FAILED",
    errorCode: code,
    propagationEndsAt: null,
  });
}

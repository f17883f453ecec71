import { Code, ConnectError } from "@connectrpc/connect";
import { ProductErrorCode } from "@palisade/api/gen/palisade/common/v1/common_pb";
import type { Database } from "../../db/database";
import { enqueueBundleSync } from "../../jobs/bundle-sync-job";
import type { JobQueue } from "../../jobs/job-queue";
import { enqueueExpiryNotice, enqueueNotification } from "../../jobs/notification-job";
import { enqueueWaiverExpiry } from "../../jobs/waiver-expiry-job";
import { callError } from "../../rpc/errors";
import { writeSystemAudit } from "../audit/audit-log";
import { maxWaiverHours } from "./waiver-context-repository";
import {
  type BundleRow,
  cancelOpenWaiversOfBundle,
  countOpenWaivers,
  dueWaiversAnyTenant,
  findByIdempotencyKey,
  findWaiver,
  findWaivers,
  insertWaivers,
  lockBundleForWaivers,
  openWaiversOfKey,
  setWaiverDeploymentStatus,
  transitionWaiver,
  type WaiverInsert,
  type WaiverView,
} from "./waiver-repository";
import {
  describeTarget,
  IDEMPOTENCY_WINDOW_MS,
  MAX_OPEN_WAIVERS_PER_DEPLOYMENT,
  refusedTransition,
  type WaiverStatusName,
} from "./waiver-rules";
import { expireWaiversAnyTenant, settlePropagatedWaiversAnyTenant } from "./waiver-sweep-repository";

// The one writer of waivers: PENDING -> ACTIVE | REJECTED | CANCELLED, ACTIVE -> EXPIRED |
// CANCELLED, and what the cloud did with each. Every change that can alter what the cloud
// enforces queues a sync of the bundle; every activation queues the expiry sweep for its end.

export interface WaiverLifecycleDeps {
  db: Database;
  jobs: JobQueue;
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

export interface NewWaivers {
  bundle: BundleRow;
  /** One waiver per deployment; the scope names the deployment in the open-waiver limit's message. */
  rows: {
    deploymentId: string;
    deploymentScope: string;
    scope: string | null;
    resource: string | null;
    principalArn: string | null;
  }[];
  createSource: string;
  requester: { name: string; identifier: string; userId: string | null };
  comment: string;
  durationSeconds: number;
  /** Approved at once (its end defaults to now + duration), or waiting for a reviewer. */
  approval: { approved: true; expiresAt?: Date; reviewer?: Reviewer } | { approved: false };
  /** A resubmission with the same key within the window returns the first waiver. */
  idempotencyKey?: string;
  /** Logged with the bundle sync. */
  reason: string;
}

/**
 * Stores new waivers in the tenant that owns the bundle, refusing more than the open-waiver
 * limit per deployment; approved ones are synced to the cloud and expire at their end.
 */
export async function createWaivers(
  deps: WaiverLifecycleDeps,
  request: NewWaivers,
): Promise<{ waivers: WaiverView[]; replayed: boolean }> {
  const { db, jobs } = deps;
  const { bundle, approval } = request;
  const created = await db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    await lockBundleForWaivers(tx, bundle.id);
    if (request.idempotencyKey) {
      const since = new Date(Date.now() - IDEMPOTENCY_WINDOW_MS);
      const first = await findByIdempotencyKey(
        tx,
        bundle.tenantId,
        request.requester.identifier,
        request.idempotencyKey,
        since,
      );
      if (first) return { waivers: [first], replayed: true };
    }
    for (const row of request.rows) {
      if (
        (await countOpenWaivers(tx, bundle.tenantId, row.deploymentId)) >= MAX_OPEN_WAIVERS_PER_DEPLOYMENT
      ) {
        throw callError(
          Code.FailedPrecondition,
          `Policy ${bundle.key} already has ${MAX_OPEN_WAIVERS_PER_DEPLOYMENT} pending or active waivers on ${describeTarget({ kind: "scope", externalId: row.deploymentScope })}; cancel some before requesting another.`,
          {
            product: ProductErrorCode.WAIVER_LIMIT_EXCEEDED,
            productMessage: `At most ${MAX_OPEN_WAIVERS_PER_DEPLOYMENT} pending or active waivers per deployment.`,
          },
        );
      }
    }
    const now = new Date();
    const decided: Partial<WaiverInsert> = approval.approved
      ? {
          status: "ACTIVE",
          approvalType: "AUTO",
          expiresAt: approval.expiresAt ?? new Date(now.getTime() + request.durationSeconds * 1_000),
          ...(approval.reviewer
            ? {
                reviewerName: approval.reviewer.name,
                reviewerIdentifier: approval.reviewer.identifier,
                reviewedAt: now,
              }
            : {}),
        }
      : { status: "PENDING", approvalType: "MANUAL", expiresAt: null };
    const rows = await insertWaivers(
      tx,
      request.rows.map((row) => ({
        tenantId: bundle.tenantId,
        deploymentId: row.deploymentId,
        policyKey: bundle.key,
        createSource: request.createSource,
        requesterName: request.requester.name,
        requesterIdentifier: request.requester.identifier,
        requesterUserId: request.requester.userId,
        comment: request.comment,
        durationSeconds: request.durationSeconds,
        scope: row.scope,
        resource: row.resource,
        principalArn: row.principalArn,
        idempotencyKey: request.idempotencyKey ?? null,
        status: "PENDING",
        approvalType: "MANUAL",
        deploymentStatus: "PENDING",
        ...decided,
      })),
    );
    const views = await findWaivers(
      tx,
      bundle.tenantId,
      rows.map((r) => r.id),
    );
    if (views.length === 0) throw new ConnectError("The waiver was not stored.", Code.Internal);
    return { waivers: views, replayed: false };
  });
  const [first] = created.waivers;
  if (!created.replayed && approval.approved && first) {
    await enqueueBundleSync(jobs, { bundleId: bundle.id, tenantId: bundle.tenantId, reason: request.reason });
    if (first.expiresAt) await enqueueWaiverExpiry(jobs, { startAfter: first.expiresAt });
  }
  if (!created.replayed) {
    for (const waiver of created.waivers) {
      if (waiver.status === "PENDING") {
        await enqueueNotification(jobs, {
          kind: "waiver.pending",
          tenantId: waiver.tenantId,
          waiverId: waiver.id,
        });
      } else if (waiver.expiresAt) {
        await enqueueExpiryNotice(jobs, {
          tenantId: waiver.tenantId,
          id: waiver.id,
          expiresAt: waiver.expiresAt,
        });
      }
    }
  }
  return created;
}

export function waiverNotFound(): ConnectError {
  return new ConnectError("No waiver with this id in this tenant.", Code.NotFound);
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

/** Approves a pending waiver: it runs for its duration from now. */
export async function approveWaiver(
  deps: WaiverLifecycleDeps,
  waiver: WaiverView,
  reviewer: Reviewer,
): Promise<WaiverView> {
  const now = new Date();
  const expiresAt = new Date(now.getTime() + waiver.durationSeconds * 1_000);
  const updated = await transition(deps.db, waiver.tenantId, waiver, "ACTIVE", {
    ...reviewed(reviewer, now),
    expiresAt,
    deploymentStatus: "PENDING",
    errorCode: null,
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
  deps: WaiverLifecycleDeps,
  waiver: WaiverView,
  reviewer: Reviewer,
): Promise<WaiverView> {
  const updated = await transition(
    deps.db,
    waiver.tenantId,
    waiver,
    "REJECTED",
    reviewed(reviewer, new Date()),
  );
  await syncBundleOf(deps.jobs, updated, "waiver rejected");
  await enqueueNotification(deps.jobs, {
    kind: "waiver.decided",
    tenantId: updated.tenantId,
    waiverId: updated.id,
  });
  return updated;
}

export async function cancelWaiver(
  deps: WaiverLifecycleDeps,
  waiver: WaiverView,
  reason = "waiver cancelled",
): Promise<WaiverView> {
  const cancelled = await transition(deps.db, waiver.tenantId, waiver, "CANCELLED");
  await syncBundleOf(deps.jobs, cancelled, reason);
  return cancelled;
}

/** Cancels every open waiver of a key; returns each cancelled waiver with the status it left. */
export async function cancelOpenWaiversOfKey(
  deps: WaiverLifecycleDeps,
  tenantId: string,
  key: string,
): Promise<{ waiver: WaiverView; from: WaiverStatusName }[]> {
  const { db } = deps;
  const cancelled: { waiver: WaiverView; from: WaiverStatusName }[] = [];
  for (const waiver of await openWaiversOfKey(db, tenantId, key)) {
    const from = waiver.status as WaiverStatusName;
    // A waiver that expired meanwhile is simply not among the cancelled ones.
    if (!(await transitionWaiver(db, tenantId, waiver.id, from, { status: "CANCELLED" }))) continue;
    const updated = await findWaiver(db, tenantId, waiver.id);
    if (updated) cancelled.push({ waiver: updated, from });
  }
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
export async function expireDueWaivers(deps: WaiverLifecycleDeps, now = new Date()): Promise<number> {
  const { db, jobs } = deps;
  const due = await dueWaiversAnyTenant(db, now);
  if (due.length === 0) return 0;
  // The bundle sync only applies waivers that are ACTIVE and unexpired, so queueing it before
  // the status changes is safe, and a crash between the two steps still re-syncs next run.
  const bundles = new Map(due.map((w) => [w.bundleId, w.tenantId]));
  for (const [bundleId, tenantId] of bundles) {
    await syncBundleOf(jobs, { bundleId, tenantId }, "waiver expired");
  }
  const expired = new Set(
    await expireWaiversAnyTenant(
      db,
      due.map((w) => w.id),
      now,
    ),
  );
  for (const waiver of due) {
    if (!expired.has(waiver.id)) continue;
    await writeSystemAudit(db, waiver.tenantId, {
      action: "WaiverService.Expire",
      targetType: "waiver",
      targetId: waiver.id,
      details: { policyKey: waiver.policyKey, expiresAt: waiver.expiresAt?.toISOString() },
    });
  }
  return expired.size;
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

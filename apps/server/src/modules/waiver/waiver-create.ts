import { Code, ConnectError } from "@connectrpc/connect";
import { ProductErrorCode } from "@palisade/api/gen/palisade/common/v1/common_pb";
import type { Database, Transaction } from "../../db/database";
import { enqueueBundleSync } from "../../jobs/bundle-sync-job";
import { enqueueExpiryNotice, enqueueNotification } from "../../jobs/notification-job";
import { enqueueWaiverExpiry } from "../../jobs/waiver-expiry-job";
import { callError } from "../../rpc/errors";
import { IDEMPOTENCY_WINDOW_MS } from "../../rpc/idempotency";
import type { ManagedBy } from "../deployment/deployment-schema";
import { type Reviewer, type WaiverLifecycleDeps, waiverEnd } from "./waiver-lifecycle";
import {
  type BundleRow,
  countOpenWaivers,
  findByIdempotencyKey,
  findWaivers,
  insertWaivers,
  lockBundleForWaivers,
  type WaiverInsert,
  type WaiverView,
} from "./waiver-repository";
import { describeTarget, MAX_OPEN_WAIVERS_PER_DEPLOYMENT } from "./waiver-rules";

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
  /** The change or incident ticket it was granted for; empty when none. */
  ticketReference?: string;
  /** A pre-approved waiver applied from a file. */
  managedBy?: ManagedBy | null;
  durationSeconds: number;
  /** Approved at once (its end defaults to now + duration), or waiting for a reviewer. */
  approval: { approved: true; expiresAt?: Date; reviewer?: Reviewer } | { approved: false };
  /** A resubmission with the same key within the window returns the first waiver. */
  idempotencyKey?: string;
  /** Whether the requester's share of the policy's waiver space limits them (not for administrators' grants). */
  limitShare?: boolean;
  /** Logged with the bundle sync. */
  reason: string;
  /** Written in the waivers' transaction: the caller's audit records of the new waivers. */
  audit?: (tx: Transaction, waivers: WaiverView[]) => Promise<void>;
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
    const expiresAt = approval.approved
      ? waiverEnd(
          bundle.provider,
          now,
          approval.expiresAt
            ? (approval.expiresAt.getTime() - now.getTime()) / 1_000
            : request.durationSeconds,
        )
      : null;
    if (expiresAt) {
      const requesterIdentifier = request.requester.identifier;
      await deps.fits(
        tx,
        bundle,
        request.rows.map((row) => ({ ...row, expiresAt, requesterIdentifier })),
        { share: request.limitShare ?? true },
      );
    }
    const decided: Partial<WaiverInsert> = approval.approved
      ? {
          status: "ACTIVE",
          approvalType: "AUTO",
          expiresAt,
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
        ticketReference: request.ticketReference ?? "",
        managedBy: request.managedBy ?? null,
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
    await request.audit?.(txn, views);
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

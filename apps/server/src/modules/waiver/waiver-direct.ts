import { timestampDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type { CreateWaiverRequest } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { WaiverCreateSource } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { evaluatedPrincipalArn } from "@palisade/policy-engine/principals/principal-arn";
import type { Database } from "../../db/database";
import { type Caller, requireCaller } from "../../rpc/call-context";
import { invalidField } from "../../rpc/errors";
import { recordAudit } from "../audit/audit-api";
import type { ManagedBy } from "../deployment/deployment-schema";
import { apiKeyOwner, requiresSeparateApprover } from "./waiver-context-repository";
import { createWaivers } from "./waiver-create";
import {
  cancelWaiver,
  tenantMaxWaiverHours,
  type WaiverLifecycleDeps,
  type WaiverSyncDeps,
  waiverNotFound,
} from "./waiver-lifecycle";
import { type BundleRow, findWaiver, type WaiverView } from "./waiver-repository";
import { deploymentsFor, waiverRowsFor } from "./waiver-request";
import { OPEN_STATUSES, type WaiverStatusName, type WaiverTarget } from "./waiver-rules";

/**
 * Waivers recorded or ended directly, by someone allowed to change deployments (integrations,
 * the security team; DeploymentManagerService.CreateWaiver and DeleteWaiver), rather than
 * requested and reviewed.
 */

/**
 * Separation of duties (when the tenant requires it): whoever grants the waiver, the signed-in
 * user or the person who owns the API key, must not be the requester it names.
 */
async function refuseSelfApproval(db: Database, caller: Caller, requesterIdentifier: string) {
  if (!(await requiresSeparateApprover(db, caller.tenantId))) return;
  const approver =
    caller.kind === "user" ? caller.email : (await apiKeyOwner(db, caller.tenantId, caller.id))?.email;
  if (approver && approver.toLowerCase() === requesterIdentifier.toLowerCase()) {
    throw new ConnectError(
      `Separation of duties: ${requesterIdentifier} is the requester and ${caller.kind === "user" ? "is" : "owns the API key"} granting the waiver. Name another requester, or grant it with a key another person owns.`,
      Code.PermissionDenied,
    );
  }
}

/** A waiver to record on a live bundle, approved at once. */
export interface DirectWaiver {
  bundle: BundleRow;
  request: CreateWaiverRequest;
  /** The file and commit a pre-approved waiver was applied from; read once its other fields are checked. */
  managedBy: () => ManagedBy | null;
}

/** Records a waiver directly, approved at once, with its audit record in the same transaction. */
export async function recordApprovedWaiver(
  deps: WaiverLifecycleDeps,
  ctx: HandlerContext,
  input: DirectWaiver,
): Promise<WaiverView> {
  const { db } = deps;
  const { bundle, request: req } = input;
  const caller = requireCaller(ctx);
  if (!req.expiresAt) throw invalidField("expires_at", "required.");
  const expiresAt = timestampDate(req.expiresAt);
  const seconds = Math.round((expiresAt.getTime() - Date.now()) / 1000);
  if (seconds <= 0) throw invalidField("expires_at", "must be in the future.");
  // The same limit as for requested waivers: the tenant's longest.
  const maxHours = await tenantMaxWaiverHours(db, caller.tenantId);
  if (seconds > maxHours * 3_600) throw invalidField("expires_at", `at most ${maxHours} hours from now.`);
  const request = req.waiverRequest;
  const comment = request?.requester?.comment.trim() ?? "";
  const requesterIdentifier = request?.requester?.identifier.trim() ?? "";
  if (requesterIdentifier !== "") await refuseSelfApproval(db, caller, requesterIdentifier);
  const target = request?.target;
  const scope = target?.case === "targetScope" ? target.value.externalId.trim() : undefined;
  const resource = target?.case === "resource" ? target.value.externalId.trim() : undefined;
  const principalArn = target?.case === "principalArn" ? target.value.trim() : undefined;
  if ([scope, resource, principalArn].some((value) => value === "")) {
    throw invalidField("waiver_request.target", "name a scope, resource or principal.");
  }
  const waiverTarget: WaiverTarget | undefined =
    scope !== undefined
      ? { kind: "scope", externalId: scope }
      : resource !== undefined
        ? { kind: "resource", externalId: resource }
        : principalArn !== undefined
          ? { kind: "principal", arn: evaluatedPrincipalArn(principalArn) }
          : undefined;
  // The same check as a requested waiver: the target lies within a scope the bundle is deployed to.
  const targets = await deploymentsFor(db, bundle, waiverTarget);
  const created = await createWaivers(deps, {
    bundle,
    rows: waiverRowsFor(targets),
    createSource:
      request && request.createSource !== WaiverCreateSource.UNSPECIFIED
        ? WaiverCreateSource[request.createSource]
        : "SYSTEM",
    requester: {
      name: request?.requester?.name.trim() || caller.name,
      identifier: requesterIdentifier || caller.email || caller.id,
      userId: caller.kind === "user" ? caller.id : null,
    },
    comment,
    ticketReference: request?.ticketReference.trim() ?? "",
    managedBy: input.managedBy(),
    durationSeconds: seconds,
    // Recorded by someone allowed to change deployments: approved by them at once.
    approval: {
      approved: true,
      expiresAt,
      reviewer: { name: caller.name, identifier: caller.email ?? caller.id },
    },
    // Granted by an administrator: only the room in the cloud limits it, not a requester's share.
    limitShare: false,
    reason: "waiver created",
    audit: async (tx, waivers) => {
      for (const waiver of waivers) {
        await recordAudit(tx, ctx, {
          target: { type: "waiver", id: waiver.id, name: waiver.policyKey },
          after: {
            policyKey: waiver.policyKey,
            status: waiver.status,
            expiresAt: waiver.expiresAt,
            scope: waiver.scope ?? waiver.resource ?? waiver.principalArn,
            comment: waiver.comment,
            ...(req.managedBy ? { managedBy: `${req.managedBy.path}@${req.managedBy.commit}` } : {}),
          },
        });
      }
    },
  });
  const [view] = created.waivers;
  if (!view) throw new ConnectError("The waiver was not stored.", Code.Internal);
  return view;
}

/** Ends an open waiver as WaiverService.Cancel does; the bundle is synced without it. */
export async function deleteOpenWaiver(deps: WaiverSyncDeps, ctx: HandlerContext, id: string): Promise<void> {
  const caller = requireCaller(ctx);
  if (!id) throw invalidField("id", "required.");
  const waiver = await findWaiver(deps.db, caller.tenantId, id);
  if (!waiver) throw waiverNotFound();
  if (!OPEN_STATUSES.includes(waiver.status as WaiverStatusName)) {
    throw new ConnectError(
      `The waiver is already ${waiver.status.toLowerCase()}; only pending or active waivers can be deleted.`,
      Code.FailedPrecondition,
    );
  }
  await cancelWaiver(deps, waiver, "waiver deleted", (tx, updated) =>
    recordAudit(tx, ctx, {
      target: { type: "waiver", id: updated.id, name: updated.policyKey },
      before: { status: waiver.status },
      after: { status: updated.status },
    }),
  );
}

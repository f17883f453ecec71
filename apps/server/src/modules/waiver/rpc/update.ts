import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import { Code, ConnectError } from "@connectrpc/connect";
import { WaiverStatus } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import type {
  UpdateRequest,
  UpdateResponseSchema,
} from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import type { Transaction } from "../../../db/database";
import { requireCaller } from "../../../rpc/call-context";
import { invalidArgument } from "../../../rpc/errors";
import { recordAudit } from "../../audit/audit-api";
import { requiresSeparateApprover } from "../waiver-context-repository";
import type { WaiverServiceDeps } from "../waiver-deps";
import { approveWaiver, rejectWaiver, waiverNotFound } from "../waiver-lifecycle";
import { waiverMessage } from "../waiver-message";
import { findWaiver, type WaiverView } from "../waiver-repository";

/** Approves or rejects a pending waiver; the audit record names which. */
export async function update(
  deps: WaiverServiceDeps,
  req: UpdateRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof UpdateResponseSchema>> {
  const { db } = deps;
  const caller = requireCaller(ctx);
  if (req.status !== WaiverStatus.ACTIVE && req.status !== WaiverStatus.REJECTED) {
    throw invalidArgument(
      "status must be ACTIVE (approve) or REJECTED (reject); cancel a waiver with Cancel.",
      [{ field: "status", message: "must be ACTIVE (approve) or REJECTED (reject)." }],
    );
  }
  const waiver = req.id ? await findWaiver(db, caller.tenantId, req.id) : undefined;
  if (!waiver) throw waiverNotFound();
  const ownRequest =
    (caller.kind === "user" && waiver.requesterUserId === caller.id) ||
    waiver.requesterIdentifier === (caller.email ?? caller.id);
  if (ownRequest && (await requiresSeparateApprover(db, caller.tenantId))) {
    throw new ConnectError(
      "You requested this waiver, so you cannot approve or reject it: someone else with the WAIVERS_UPDATE permission must decide.",
      Code.PermissionDenied,
    );
  }
  // E-mail for people; the API key's id for integrations.
  const reviewer = { name: caller.name, identifier: caller.email ?? caller.id };
  const approve = req.status === WaiverStatus.ACTIVE;
  const audit = (tx: Transaction, decided: WaiverView) =>
    recordAudit(tx, ctx, {
      target: { type: "waiver", id: decided.id, name: decided.policyKey },
      before: { status: waiver.status },
      after: { status: decided.status, policyKey: decided.policyKey, expiresAt: decided.expiresAt },
    });
  const updated = approve
    ? await approveWaiver(deps, waiver, reviewer, audit)
    : await rejectWaiver(deps, waiver, reviewer, audit);
  return { waiver: waiverMessage(updated) };
}

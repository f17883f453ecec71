import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  CancelRequest,
  CancelResponseSchema,
} from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { invalidArgument } from "../../../rpc/errors";
import { recordAudit } from "../../audit/audit-api";
import { tenantHasKey } from "../waiver-context-repository";
import { notFoundKey, type WaiverServiceDeps } from "../waiver-deps";
import { cancelOpenWaiversOfKey, cancelWaiver, waiverNotFound } from "../waiver-lifecycle";
import { waiverMessage } from "../waiver-message";
import { findWaiver } from "../waiver-repository";
import { parseKey } from "../waiver-rules";

/** Cancels one waiver, or every open waiver of a policy key. */
export async function cancel(
  deps: WaiverServiceDeps,
  req: CancelRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof CancelResponseSchema>> {
  const { db } = deps;
  const caller = requireCaller(ctx);
  const target = req.target;
  if (target.case === "id") {
    const waiver = target.value ? await findWaiver(db, caller.tenantId, target.value) : undefined;
    if (!waiver) throw waiverNotFound();
    const cancelled = await cancelWaiver(deps, waiver, undefined, (tx, updated) =>
      recordAudit(tx, ctx, {
        target: { type: "waiver", id: updated.id, name: updated.policyKey },
        before: { status: waiver.status },
        after: { status: updated.status },
      }),
    );
    return { waivers: [waiverMessage(cancelled)] };
  }
  if (target.case === "policyKey") {
    const key = parseKey(target.value);
    if (!(await tenantHasKey(db, caller.tenantId, key))) throw notFoundKey(key);
    const cancelled = await cancelOpenWaiversOfKey(deps, caller.tenantId, key, (tx, updated) =>
      recordAudit(tx, ctx, {
        target: { type: "waiver", id: updated.id, name: updated.policyKey },
        after: { status: updated.status },
      }),
    );
    return { waivers: cancelled.map(({ waiver }) => waiverMessage(waiver)) };
  }
  throw invalidArgument("Give the id of the waiver to cancel, or a policy key.");
}

import type { HandlerContext } from "@connectrpc/connect";
import type { UpdateRequest } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { recordAudit } from "../../audit/audit-api";
import type { EventServiceDeps } from "../event-deps";
import { scopesOf } from "../event-hierarchy";
import { eventMessage } from "../event-message";
import { findEvent, setEventDismissed } from "../event-repository";
import { dismissReason, existingEvent } from "../event-request";

/** Dismisses (or restores) one event; the reason, if given, goes into the audit record. */
export async function update({ db }: EventServiceDeps, req: UpdateRequest, ctx: HandlerContext) {
  const caller = requireCaller(ctx);
  const reason = dismissReason(req.reason);
  const row = await existingEvent(db, caller.tenantId, req.id);
  await db.transaction(async (tx) => {
    await setEventDismissed(tx, caller.tenantId, row.id, req.isDismissed);
    await recordAudit(tx, ctx, {
      target: { type: "policy_event", id: row.id },
      after: reason ? { isDismissed: req.isDismissed, reason } : { isDismissed: req.isDismissed },
    });
  });
  const updated = (await findEvent(db, caller.tenantId, row.id)) ?? row;
  return { event: eventMessage(updated, await scopesOf(db, caller.tenantId, [updated])) };
}

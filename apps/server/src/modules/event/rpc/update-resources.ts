import { Code, type HandlerContext } from "@connectrpc/connect";
import type { UpdateResourcesRequest } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { callError } from "../../../rpc/errors";
import { recordAudit } from "../../audit/audit-api";
import type { EventServiceDeps } from "../event-deps";
import { scopesOf } from "../event-hierarchy";
import { resourceEventMessage } from "../event-message";
import { dismissReason, existingEvent } from "../event-request";
import { findResourceEventOf, setResourceDismissed } from "../resource-event-repository";

/** Dismisses (or restores) the resource event of an event, with every event of that resource. */
export async function updateResources(
  { db }: EventServiceDeps,
  req: UpdateResourcesRequest,
  ctx: HandlerContext,
) {
  const caller = requireCaller(ctx);
  const reason = dismissReason(req.reason);
  const row = await existingEvent(db, caller.tenantId, req.id);
  const resourceEvent = await findResourceEventOf(db, caller.tenantId, row.id);
  if (!resourceEvent) throw callError(Code.NotFound, "This event does not belong to a resource event.");
  await db.transaction(async (tx) => {
    await setResourceDismissed(tx, caller.tenantId, resourceEvent.re_id, req.isDismissed);
    await recordAudit(tx, ctx, {
      target: { type: "policy_event", id: resourceEvent.re_id },
      after: { isDismissed: req.isDismissed, eventId: row.id, ...(reason ? { reason } : {}) },
    });
  });
  const updated = (await findResourceEventOf(db, caller.tenantId, row.id)) ?? resourceEvent;
  return { resourceEvent: resourceEventMessage(updated, await scopesOf(db, caller.tenantId, [updated])) };
}

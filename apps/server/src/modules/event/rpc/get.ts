import type { HandlerContext } from "@connectrpc/connect";
import type { GetRequest } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import type { EventServiceDeps } from "../event-deps";
import { scopesOf } from "../event-hierarchy";
import { eventMessage } from "../event-message";
import { existingEvent } from "../event-request";

export async function get({ db }: EventServiceDeps, req: GetRequest, ctx: HandlerContext) {
  const caller = requireCaller(ctx);
  const row = await existingEvent(db, caller.tenantId, req.id);
  return { event: eventMessage(row, await scopesOf(db, caller.tenantId, [row])) };
}

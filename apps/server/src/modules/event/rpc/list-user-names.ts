import type { HandlerContext } from "@connectrpc/connect";
import type { ListUserNamesRequest } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import type { EventServiceDeps } from "../event-deps";
import { eventUserMessage } from "../event-message";
import { trimmedText } from "../event-request";
import { userNames } from "../event-summary-repository";

/** The users behind the tenant's events; a search of fewer than two characters lists all. */
export async function listUserNames(
  { db }: EventServiceDeps,
  req: ListUserNamesRequest,
  ctx: HandlerContext,
) {
  const caller = requireCaller(ctx);
  const search = trimmedText(req.search);
  const rows = await userNames(db, caller.tenantId, search && search.length >= 2 ? search : undefined);
  return { users: rows.map(eventUserMessage) };
}

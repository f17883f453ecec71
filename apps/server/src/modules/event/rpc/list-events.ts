import type { HandlerContext } from "@connectrpc/connect";
import type { ListEventsRequest } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import type { EventServiceDeps } from "../event-deps";
import { scopesOf } from "../event-hierarchy";
import { eventMessage, paginationMessage } from "../event-message";
import { COUNT_CAP, countEvents, listEvents as listEventRows } from "../event-repository";
import { parseEventFilter, parsePage } from "../event-request";

export async function listEvents({ db }: EventServiceDeps, req: ListEventsRequest, ctx: HandlerContext) {
  const caller = requireCaller(ctx);
  const q = await parseEventFilter(db, caller.tenantId, req.filter);
  const page = parsePage(req.pagination, req.orderBy);
  const { rows, hasMore } = await listEventRows(db, caller.tenantId, q, page);
  const total = await countEvents(db, caller.tenantId, q, page.cursorMode ? COUNT_CAP : undefined);
  const scopes = await scopesOf(db, caller.tenantId, rows);
  return {
    items: rows.map((r) => eventMessage(r, scopes)),
    pagination: paginationMessage(page, rows, hasMore, total),
  };
}

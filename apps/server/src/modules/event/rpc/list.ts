import type { HandlerContext } from "@connectrpc/connect";
import type { ListRequest } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import type { EventServiceDeps } from "../event-deps";
import { scopesOf } from "../event-hierarchy";
import { paginationMessage, resourceEventMessage } from "../event-message";
import { COUNT_CAP } from "../event-repository";
import { parseEventFilter, parsePage } from "../event-request";
import {
  countEventsPerResource,
  countResourceEvents,
  listResourceEvents as listResourceEventRows,
} from "../resource-event-repository";

/** Resource events: each resource under a deployment with its newest event. */
export async function list({ db }: EventServiceDeps, req: ListRequest, ctx: HandlerContext) {
  const caller = requireCaller(ctx);
  const q = await parseEventFilter(db, caller.tenantId, req.filter);
  const page = parsePage(req.pagination, req.orderBy);
  const { rows, hasMore } = await listResourceEventRows(db, caller.tenantId, q, page);
  const total = await countResourceEvents(db, caller.tenantId, q, page.cursorMode ? COUNT_CAP : undefined);
  const scopes = await scopesOf(db, caller.tenantId, rows);
  const keyOf = (deploymentId: string, resource: string) => `${deploymentId}\u0000${resource}`;
  const counts = await countEventsPerResource(
    db,
    caller.tenantId,
    rows.flatMap((r) =>
      r.deployment_id && r.resource_external_id
        ? [{ deploymentId: r.deployment_id, resource: r.resource_external_id }]
        : [],
    ),
  );
  return {
    items: rows.map((r) => {
      const message = resourceEventMessage(r, scopes);
      message.eventCount = counts.get(keyOf(r.deployment_id ?? "", r.resource_external_id ?? "")) ?? 1;
      return message;
    }),
    pagination: paginationMessage(page, rows, hasMore, total),
  };
}

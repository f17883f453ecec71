import { Code, type HandlerContext } from "@connectrpc/connect";
import type { ListHierarchyEventsRequest } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { callError } from "../../../rpc/errors";
import type { EventServiceDeps } from "../event-deps";
import { descendants, hierarchyOf } from "../event-hierarchy";
import { scopeMessage, summaryMessage } from "../event-message";
import { parseEventFilter, trimmedText } from "../event-request";
import { type SummaryCounts, summarizeByScope, summaryOf } from "../event-summary-repository";

function addCounts(total: SummaryCounts, counts: SummaryCounts) {
  for (const key of Object.keys(total) as (keyof SummaryCounts)[]) total[key] += counts[key];
}

/** The children of a scope (the roots without one), each with the counts of everything below it. */
export async function listHierarchyEvents(
  { db }: EventServiceDeps,
  req: ListHierarchyEventsRequest,
  ctx: HandlerContext,
) {
  const caller = requireCaller(ctx);
  const parent = trimmedText(req.parentExternalId);
  const view = await hierarchyOf(db, caller.tenantId);
  if (parent && !view.nodes.has(parent.toLowerCase()))
    throw callError(Code.NotFound, "No such scope in this tenant's connected clouds.");
  const q = await parseEventFilter(db, caller.tenantId, req.filter);
  const byScope = new Map(
    (await summarizeByScope(db, caller.tenantId, q)).map((r) => [r.scope ?? "", summaryOf(r)]),
  );
  const childIds = view.children.get(parent?.toLowerCase() ?? "") ?? [];
  const items = childIds.map((id) => {
    const node = view.nodes.get(id);
    const total = summaryOf(undefined);
    for (const scope of descendants(view, id)) {
      const counts = byScope.get(scope);
      if (counts) addCounts(total, counts);
    }
    // Azure resources live below resource groups that may not be synced yet.
    for (const [scope, counts] of byScope) {
      if (scope.startsWith(`${id}/`) && !view.nodes.has(scope)) addCounts(total, counts);
    }
    return {
      scope: scopeMessage({
        provider: node?.provider ?? "",
        externalId: node?.externalId ?? id,
        name: node?.name ?? id,
        type: node?.type ?? "",
        connectorId: node?.connectorId ?? "",
      }),
      summary: summaryMessage(total),
      hasChildren: (view.children.get(id)?.length ?? 0) > 0,
    };
  });
  return { items };
}

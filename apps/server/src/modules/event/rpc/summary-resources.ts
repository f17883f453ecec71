import type { HandlerContext } from "@connectrpc/connect";
import type { SummaryResourcesRequest } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import type { EventServiceDeps } from "../event-deps";
import { summaryMessage } from "../event-message";
import { parseEventFilter } from "../event-request";
import { type SummaryCounts, summarizeResourceTypes, summaryOf } from "../event-summary-repository";

/** Resource events counted by kind per resource type. */
export async function summaryResources(
  { db }: EventServiceDeps,
  req: SummaryResourcesRequest,
  ctx: HandlerContext,
) {
  const caller = requireCaller(ctx);
  const q = await parseEventFilter(db, caller.tenantId, req.filter);
  const rows = await summarizeResourceTypes(db, caller.tenantId, q);
  const total = summaryOf(undefined);
  for (const r of rows) {
    const counts = summaryOf(r);
    for (const key of Object.keys(total) as (keyof SummaryCounts)[]) total[key] += counts[key];
  }
  return {
    total: summaryMessage(total),
    resourceTypes: rows.map((r) => ({
      resourceType: r.resource_type ?? "",
      summary: summaryMessage(summaryOf(r)),
    })),
  };
}

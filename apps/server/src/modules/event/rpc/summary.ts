import type { HandlerContext } from "@connectrpc/connect";
import type { SummaryRequest } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import type { EventServiceDeps } from "../event-deps";
import { summaryMessage } from "../event-message";
import { parseEventFilter } from "../event-request";
import { mostActive, summarize } from "../event-summary-repository";

/** Counts by kind, and the bundles that prevented, alerted and were waived most. */
export async function summary({ db }: EventServiceDeps, req: SummaryRequest, ctx: HandlerContext) {
  const caller = requireCaller(ctx);
  const q = await parseEventFilter(db, caller.tenantId, req.filter);
  const [counts, prevented, alerted, waived] = await Promise.all([
    summarize(db, caller.tenantId, q),
    mostActive(db, caller.tenantId, q, "PREVENTION"),
    mostActive(db, caller.tenantId, q, "ALERT"),
    mostActive(db, caller.tenantId, q, "WAIVED"),
  ]);
  const bundleCounts = (rows: typeof prevented) =>
    rows.map((r) => ({
      bundleId: r.bundle_id,
      name: r.name,
      key: r.key,
      policySlug: r.policy_slug,
      count: Number(r.count),
    }));
  return {
    summary: summaryMessage(counts),
    mostActiveBundles: {
      prevented: bundleCounts(prevented),
      alerted: bundleCounts(alerted),
      waived: bundleCounts(waived),
    },
  };
}

import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, type HandlerContext } from "@connectrpc/connect";
import type { GetCompliantTrendRequest } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { callError } from "../../../rpc/errors";
import type { EventServiceDeps } from "../event-deps";
import { findBundleId } from "../event-lookup-repository";
import { dateOf, invalidInput, requiredId } from "../event-request";
import { complianceTrend } from "../event-summary-repository";

const DAY_MS = 86_400_000;
const MAX_TREND_DAYS = 366;

/** A bundle's compliant and non-compliant resources, overall, within the range and per day. */
export async function getCompliantTrend(
  { db }: EventServiceDeps,
  req: GetCompliantTrendRequest,
  ctx: HandlerContext,
) {
  const caller = requireCaller(ctx);
  const bundleId = await findBundleId(db, caller.tenantId, requiredId(req.bundleId, "bundle_id"));
  if (!bundleId) throw callError(Code.NotFound, "No such bundle in this tenant.");
  const end = dateOf(req.range?.end) ?? new Date();
  const start = dateOf(req.range?.start) ?? new Date(end.getTime() - 30 * DAY_MS);
  if (start.getTime() >= end.getTime()) throw invalidInput("range", "range: start must be before end.");
  if (end.getTime() - start.getTime() > MAX_TREND_DAYS * DAY_MS)
    throw invalidInput("range", `range may span at most ${MAX_TREND_DAYS} days.`);
  const trend = await complianceTrend(db, caller.tenantId, bundleId, start, end);
  // Each day counts every resource by its last known state on or before that day.
  const state = new Map<string, boolean>();
  const points = [];
  let i = 0;
  const firstDay = Date.parse(`${start.toISOString().slice(0, 10)}T00:00:00Z`);
  for (let day = firstDay; day < end.getTime(); day += DAY_MS) {
    const label = new Date(day).toISOString().slice(0, 10);
    while (i < trend.observations.length && (trend.observations[i]?.day ?? "") <= label) {
      const o = trend.observations[i] as { resource: string; compliant: boolean };
      state.set(o.resource, o.compliant);
      i += 1;
    }
    let compliant = 0;
    for (const value of state.values()) if (value) compliant += 1;
    points.push({
      time: timestampFromDate(new Date(day)),
      totals: { compliant, nonCompliant: state.size - compliant },
    });
  }
  return {
    trend: {
      overall: {
        compliant: Number(trend.overall?.compliant ?? 0),
        nonCompliant: Number(trend.overall?.non_compliant ?? 0),
      },
      withinRange: {
        compliant: Number(trend.within?.compliant ?? 0),
        nonCompliant: Number(trend.within?.non_compliant ?? 0),
      },
      points,
    },
  };
}

import type { SandboxRequest, SandboxResponse } from "../http/types";
import { isSubmitted } from "./activity-log";
import { type ArmContext, armError } from "./arm-http";
import { armPage } from "./paging";

// The time may be quoted or not, as `az monitor activity-log list` sends it
// (`eventTimestamp ge 2026-11-27T21:45:11.77`); one without an offset is UTC
// (https://learn.microsoft.com/en-us/rest/api/monitor/activity-logs/list, `$filter`).
const TIME_FILTER = /eventTimestamp\s+(ge|le|gt|lt)\s+(?:'([^']+)'|([^\s')]+))/gi;
const utc = (time: string) => (/T[^Z+-]*$/i.test(time) ? `${time}Z` : time);
const EQ_FILTER =
  /(resourceGroupName|resourceUri|resourceId|correlationId|resourceProvider|status|caller)\s+eq\s+'([^']*)'/gi;

export function listActivityLog(
  ctx: ArmContext,
  req: SandboxRequest,
  subscriptionId: string,
): SandboxResponse {
  const azure = ctx.store.state.azure;
  const sub = azure.subscriptions.find(
    (s) => s.subscriptionId.toLowerCase() === subscriptionId.toLowerCase(),
  );
  if (!sub)
    return armError(404, "SubscriptionNotFound", `The subscription '${subscriptionId}' could not be found.`);
  const filter = req.query.get("$filter") ?? "";
  let from: number | undefined;
  let to = Number.POSITIVE_INFINITY;
  for (const m of filter.matchAll(TIME_FILTER)) {
    const time = m[2] ?? m[3]!;
    const t = Date.parse(utc(time));
    if (Number.isNaN(t)) return armError(400, "BadRequest", `The time '${time}' in $filter is not valid.`);
    if (m[1]!.toLowerCase().startsWith("g")) from = t;
    else to = t;
  }
  if (from === undefined) {
    return armError(400, "BadRequest", "The $filter must contain eventTimestamp ge '<start time>'.");
  }
  const eq = [...filter.matchAll(EQ_FILTER)].map((m) => [m[1]!.toLowerCase(), m[2]!.toLowerCase()] as const);
  const now = ctx.store.now();
  const matching = azure.activityLog
    .filter((e) => {
      if (e.subscriptionId !== sub.subscriptionId || !isSubmitted(e, now)) return false;
      const t = Date.parse(e.eventTimestamp);
      if (t < from || t > to) return false;
      return eq.every(([k, v]) => {
        if (k === "resourcegroupname") return (e.resourceGroupName ?? "").toLowerCase() === v;
        if (k === "resourceuri" || k === "resourceid") return e.resourceId.toLowerCase() === v;
        if (k === "correlationid") return e.correlationId.toLowerCase() === v;
        if (k === "resourceprovider") return e.resourceProviderName.value.toLowerCase() === v;
        if (k === "status") return e.status.value.toLowerCase() === v;
        return e.caller.toLowerCase() === v;
      });
    })
    .reverse();
  return armPage(ctx, req, matching);
}

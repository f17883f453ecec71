import { createHash } from "node:crypto";
import type { CloudTrailRecord } from "../state/model";
import type { StateStore } from "../state/store";
import { type AwsCaller, AwsError } from "./common";

// LookupEvents as https://docs.aws.amazon.com/awscloudtrail/latest/APIReference/API_LookupEvents.html
// documents it: "Lookup supports the following attributes for management events" (one at a time),
// "All attributes are optional", "The rate of lookup requests is limited to two per second, per
// account, per Region. If this limit is exceeded, a throttling error occurs", events of the last
// 90 days, MaxResults 1 to 50. Event history is per account and per Region: a caller sees the
// management events of its own account in the Region of the endpoint it called
// (https://docs.aws.amazon.com/awscloudtrail/latest/userguide/view-cloudtrail-events.html).

const HISTORY_MS = 90 * 86_400_000;

/** Calls per second per account and Region, over a sliding second. */
export function createLookupRateLimit(perSecond: number): (key: string, nowMs: number) => boolean {
  // Per key, the times of the calls let through in the last second (from `head` on).
  const windows = new Map<string, { times: number[]; head: number }>();
  return (key, nowMs) => {
    let w = windows.get(key);
    if (!w) {
      w = { times: [], head: 0 };
      windows.set(key, w);
    }
    while (w.head < w.times.length && nowMs - w.times[w.head]! >= 1000) w.head++;
    if (w.head > 1024 && w.head * 2 > w.times.length) {
      w.times = w.times.slice(w.head);
      w.head = 0;
    }
    if (w.times.length - w.head >= perSecond) return false;
    w.times.push(nowMs);
    return true;
  };
}

const ATTRIBUTE_KEYS = new Set([
  "EventId",
  "EventName",
  "ReadOnly",
  "Username",
  "ResourceType",
  "ResourceName",
  "EventSource",
  "AccessKeyId",
]);

function username(r: CloudTrailRecord): string {
  const id = r.userIdentity as { userName?: string; arn?: string; type?: string };
  if (id.type === "AssumedRole")
    return (
      String(id.arn ?? "")
        .split("/")
        .pop() ?? ""
    );
  return (
    id.userName ??
    String(id.arn ?? "")
      .split("/")
      .pop() ??
    ""
  );
}

function matches(r: CloudTrailRecord, key: string, value: string): boolean {
  switch (key) {
    case "EventId":
      return r.eventID === value;
    case "EventName":
      return r.eventName === value;
    case "ReadOnly":
      return String(r.readOnly) === value;
    case "Username":
      return username(r) === value;
    case "ResourceType":
      return (r.resources ?? []).some((x) => x.type === value);
    case "ResourceName":
      return (r.resources ?? []).some((x) => x.ARN === value || x.ARN.split(/[:/]/).pop() === value);
    case "EventSource":
      return r.eventSource === value;
    case "AccessKeyId":
      return (r.userIdentity as { accessKeyId?: string }).accessKeyId === value;
  }
  return false;
}

export function handleCloudTrail(
  store: StateStore,
  caller: Pick<AwsCaller, "accountId" | "region">,
  action: string,
  input: Record<string, unknown>,
  withinRate: (key: string, nowMs: number) => boolean = () => true,
): unknown {
  if (action !== "LookupEvents")
    throw new AwsError("UnknownOperationException", `Operation ${action} is not supported by the sandbox.`);
  if (!withinRate(`${caller.accountId}/${caller.region}`, Date.now()))
    throw new AwsError("ThrottlingException", "Rate exceeded", 400);
  const attributes =
    (input.LookupAttributes as { AttributeKey?: string; AttributeValue?: string }[] | undefined) ?? [];
  if (attributes.length > 1) {
    throw new AwsError("InvalidLookupAttributesException", "You can specify only one lookup attribute.");
  }
  const attr = attributes[0];
  if (
    attr &&
    (!attr.AttributeKey || !ATTRIBUTE_KEYS.has(attr.AttributeKey) || attr.AttributeValue === undefined)
  ) {
    throw new AwsError("InvalidLookupAttributesException", "The lookup attribute key is not valid.");
  }
  const now = store.now().getTime();
  const start = Math.max(typeof input.StartTime === "number" ? input.StartTime * 1000 : 0, now - HISTORY_MS);
  const end = typeof input.EndTime === "number" ? input.EndTime * 1000 : now;
  if (
    typeof input.StartTime === "number" &&
    typeof input.EndTime === "number" &&
    input.StartTime > input.EndTime
  )
    throw new AwsError("InvalidTimeRangeException", "The start time must be before the end time.");
  if (
    input.MaxResults !== undefined &&
    (typeof input.MaxResults !== "number" || input.MaxResults < 1 || input.MaxResults > 50)
  ) {
    throw new AwsError("InvalidMaxResultsException", "MaxResults must be between 1 and 50.");
  }
  // EventCategory "insight" asks for Insights events, which no trail here produces.
  if (input.EventCategory !== undefined && input.EventCategory !== "insight") {
    throw new AwsError("InvalidEventCategoryException", "The event category is not valid.");
  }
  if (input.EventCategory === "insight") return { Events: [] };
  const matchesAll = (r: CloudTrailRecord) => {
    const t = Date.parse(r.eventTime);
    return (
      r.recipientAccountId === caller.accountId &&
      r.awsRegion === caller.region &&
      t >= start &&
      t <= end &&
      (!attr || matches(r, attr.AttributeKey!, attr.AttributeValue!))
    );
  };
  // "This token must be passed in with the same parameters that were specified in the original
  // call": a token used with other parameters, another account or Region is refused.
  const query = createHash("sha256")
    .update(
      JSON.stringify([
        caller.accountId,
        caller.region,
        attr ?? null,
        input.StartTime ?? null,
        input.EndTime ?? null,
      ]),
    )
    .digest("hex")
    .slice(0, 16);
  // Newest first, walking back from the end so a page costs what it skips, not the whole trail.
  // The cursor is the last event returned, so events arriving between pages don't shift the listing;
  // it also carries that event's position, found again at once unless the trail was trimmed since.
  const trail = store.state.aws.trail;
  let i = trail.length - 1;
  if (input.NextToken !== undefined) {
    const cursor = decodeCursor(input.NextToken);
    if (cursor.query !== query)
      throw new AwsError("InvalidNextTokenException", "The provided NextToken is not valid.");
    if (trail[cursor.index]?.eventID === cursor.eventId) i = cursor.index;
    else while (i >= 0 && trail[i]!.eventID !== cursor.eventId) i--;
    if (i < 0) throw new AwsError("InvalidNextTokenException", "The provided NextToken is not valid.");
    i--;
  }
  const size = (input.MaxResults as number | undefined) ?? 50;
  const items: CloudTrailRecord[] = [];
  let lastIndex = -1;
  let more = false;
  for (; i >= 0; i--) {
    const r = trail[i]!;
    if (!matchesAll(r)) continue;
    if (items.length === size) {
      more = true;
      break;
    }
    items.push(r);
    lastIndex = i;
  }
  const last = items[items.length - 1];
  const p = { items, nextToken: more && last ? encodeCursor(lastIndex, query, last.eventID) : undefined };
  const events = p.items.map((r) => ({
    EventId: r.eventID,
    EventName: r.eventName,
    ReadOnly: String(r.readOnly),
    AccessKeyId: (r.userIdentity as { accessKeyId?: string }).accessKeyId,
    EventTime: Date.parse(r.eventTime) / 1000,
    EventSource: r.eventSource,
    Username: username(r),
    Resources: (r.resources ?? []).map((x) => ({ ResourceType: x.type, ResourceName: x.ARN })),
    CloudTrailEvent: JSON.stringify(r),
  }));
  return p.nextToken ? { Events: events, NextToken: p.nextToken } : { Events: events };
}

function encodeCursor(index: number, query: string, eventId: string): string {
  return Buffer.from(`${index}:${query}:${eventId}`).toString("base64url");
}

function decodeCursor(token: unknown): { index: number; query: string; eventId: string } {
  const [index, query, ...id] =
    typeof token === "string" ? Buffer.from(token, "base64url").toString().split(":") : [];
  if (!index || !query || id.length === 0 || !/^\d+$/.test(index))
    throw new AwsError("InvalidNextTokenException", "The provided NextToken is not valid.");
  return { index: Number(index), query, eventId: id.join(":") };
}

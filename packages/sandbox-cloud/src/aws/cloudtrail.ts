import type { CloudTrailRecord } from "../state/model";
import type { StateStore } from "../state/store";
import { AwsError } from "./common";

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
      return r.resources.some((x) => x.type === value);
    case "ResourceName":
      return r.resources.some((x) => x.ARN === value || x.ARN.split(/[:/]/).pop() === value);
    case "EventSource":
      return r.eventSource === value;
    case "AccessKeyId":
      return (r.userIdentity as { accessKeyId?: string }).accessKeyId === value;
  }
  return false;
}

export function handleCloudTrail(store: StateStore, action: string, input: Record<string, unknown>): unknown {
  if (action !== "LookupEvents")
    throw new AwsError("UnknownOperationException", `Operation ${action} is not supported by the sandbox.`);
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
  const start = typeof input.StartTime === "number" ? input.StartTime * 1000 : now - 90 * 86_400_000;
  const end = typeof input.EndTime === "number" ? input.EndTime * 1000 : now;
  if (start > end)
    throw new AwsError("InvalidTimeRangeException", "The start time must be before the end time.");
  if (
    input.MaxResults !== undefined &&
    (typeof input.MaxResults !== "number" || input.MaxResults < 1 || input.MaxResults > 50)
  ) {
    throw new AwsError("InvalidMaxResultsException", "MaxResults must be between 1 and 50.");
  }
  const matchesAll = (r: CloudTrailRecord) => {
    const t = Date.parse(r.eventTime);
    return t >= start && t <= end && (!attr || matches(r, attr.AttributeKey!, attr.AttributeValue!));
  };
  // Newest first, walking back from the end so a page costs what it skips, not the whole trail.
  // The cursor is the last event returned, so events arriving between pages don't shift the listing;
  // it also carries that event's position, found again at once unless the trail was trimmed since.
  const trail = store.state.aws.trail;
  let i = trail.length - 1;
  if (input.NextToken !== undefined) {
    const cursor = decodeCursor(input.NextToken);
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
  const p = { items, nextToken: more && last ? encodeCursor(lastIndex, last.eventID) : undefined };
  const events = p.items.map((r) => ({
    EventId: r.eventID,
    EventName: r.eventName,
    ReadOnly: String(r.readOnly),
    AccessKeyId: (r.userIdentity as { accessKeyId?: string }).accessKeyId,
    EventTime: Date.parse(r.eventTime) / 1000,
    EventSource: r.eventSource,
    Username: username(r),
    Resources: r.resources.map((x) => ({ ResourceType: x.type, ResourceName: x.ARN })),
    CloudTrailEvent: JSON.stringify(r),
  }));
  return p.nextToken ? { Events: events, NextToken: p.nextToken } : { Events: events };
}

function encodeCursor(index: number, eventId: string): string {
  return Buffer.from(`${index}:${eventId}`).toString("base64url");
}

function decodeCursor(token: unknown): { index: number; eventId: string } {
  const [index, ...id] =
    typeof token === "string" ? Buffer.from(token, "base64url").toString().split(":") : [];
  if (!index || id.length === 0 || !/^\d+$/.test(index))
    throw new AwsError("InvalidNextTokenException", "The provided NextToken is not valid.");
  return { index: Number(index), eventId: id.join(":") };
}

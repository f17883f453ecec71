import { type Event, LookupEventsCommand } from "@aws-sdk/client-cloudtrail";
import { type AuditCursor, advanceCursor, decodeCursor, encodeCursor } from "../audit-cursor";
import type { AuditPage, AuditRecord } from "../cloud-provider";
import type { AwsClients } from "./aws-clients";

/**
 * CloudTrail delivers an event "within an average of about 5 minutes of an API call. This time is
 * not guaranteed" (https://docs.aws.amazon.com/awscloudtrail/latest/userguide/get-and-view-cloudtrail-log-files.html):
 * each read lists again the quarter hour before the newest event seen.
 */
export const CLOUDTRAIL_REREAD_MS = 15 * 60_000;

/** CloudTrail's management events after the cursor (the last 90 days on a first read). */
export async function readCloudTrailEvents(
  { cloudtrail, allPages }: AwsClients,
  cursorText: string | undefined,
  options?: { since?: Date },
): Promise<AuditPage> {
  const cursor: AuditCursor = decodeCursor(cursorText) ?? {
    time: (options?.since ?? new Date(Date.now() - 90 * 86_400_000)).toISOString(),
    ids: [],
  };
  const events = await allPages(async (NextToken) => {
    const out = await cloudtrail.send(
      new LookupEventsCommand({ StartTime: new Date(cursor.time), MaxResults: 50, NextToken }),
    );
    return { items: out.Events ?? [], next: out.NextToken };
  });
  const records = events.map(auditRecord);
  const { fresh, next } = advanceCursor(cursor, records, CLOUDTRAIL_REREAD_MS);
  return { records: fresh, cursor: encodeCursor(next) };
}

const parsedDetails = new WeakMap<Event, Record<string, unknown>>();

/**
 * The record's `CloudTrailEvent` JSON, parsed once per event however many readers ask (the
 * adapter for the common fields, the classifier and the impact replay for the request).
 */
export function cloudTrailEventDetail(event: Event): Record<string, unknown> {
  let detail = parsedDetails.get(event);
  if (detail) return detail;
  try {
    detail = event.CloudTrailEvent ? (JSON.parse(event.CloudTrailEvent) as Record<string, unknown>) : {};
  } catch {
    // A record that is not JSON still carries its id, time and name.
    detail = {};
  }
  parsedDetails.set(event, detail);
  return detail;
}

export function auditRecord(event: Event): AuditRecord {
  const detail = cloudTrailEventDetail(event) as {
    errorCode?: string;
    errorMessage?: string;
    recipientAccountId?: string;
    userIdentity?: { arn?: string };
  };
  const service = (event.EventSource ?? "").split(".")[0] ?? "";
  return {
    id: event.EventId ?? "",
    time: event.EventTime ?? new Date(0),
    action: service ? `${service}:${event.EventName ?? ""}` : (event.EventName ?? ""),
    principal: detail.userIdentity?.arn ?? event.Username,
    scopeId: detail.recipientAccountId,
    errorCode: detail.errorCode,
    errorMessage: detail.errorMessage,
    raw: event,
  };
}

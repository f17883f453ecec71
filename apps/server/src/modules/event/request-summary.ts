import { createHash } from "node:crypto";
import type { RecordedRequest } from "@palisade/policy-engine/evaluators/scp/evaluate-recorded";
import { GLOBAL_KNOWN } from "@palisade/policy-engine/evaluators/scp/request-from-cloudtrail";
import { requestShapeKey } from "@palisade/policy-engine/evaluators/scp/request-shape-key";
import type { AuditRecord } from "../../cloud/cloud-provider";
import type { Database } from "../../db/database";
import { cloudTrailDetail, isDenial, principalOf, requestOf } from "./classify-aws";
import {
  addRequestSummaries,
  listStoredRequests,
  pruneRequestSummaries,
  type RequestSummary,
} from "./request-summary-repository";

/** How far back requests are kept: the longest period an impact preview covers. */
export const REQUEST_SUMMARY_DAYS = 90;
const DAY_MS = 86_400_000;

/**
 * Keys that differ from one record to the next (the time, the session's id) and that no
 * guardrail of the catalogue reads: kept, they would make every record a row of its own. Left
 * out, they are unknown, so a guardrail that reads them finds the request not evaluable.
 */
const PER_RECORD_KEYS = new Set(["aws:currenttime", "aws:epochtime", "aws:userid"]);
/** The keys every record tells, left out of each stored request and put back on reading. */
const STORED_GLOBAL_KNOWN = GLOBAL_KNOWN.filter((key) => !PER_RECORD_KEYS.has(key));
const GLOBAL = new Set(GLOBAL_KNOWN);

function foldable(request: RecordedRequest): RecordedRequest {
  return {
    ...request,
    checks: request.checks.map((check) => ({
      resource: check.resource,
      context: Object.fromEntries(
        Object.entries(check.context).filter(([key]) => !PER_RECORD_KEYS.has(key.toLowerCase())),
      ),
      known: check.known.filter((key) => !PER_RECORD_KEYS.has(key)),
    })),
  };
}

/** What is stored of a request: the keys every record tells are implied. */
const storedForm = (request: RecordedRequest): RecordedRequest => ({
  ...request,
  checks: request.checks.map((check) => ({ ...check, known: check.known.filter((key) => !GLOBAL.has(key)) })),
});

/** A stored request, made `count` times in the period, as the preview replays it. */
export interface StoredRequest {
  refused: boolean;
  request: RecordedRequest;
  count: number;
  lastEventId: string;
  lastSeenAt: Date;
}

/** A connector's distinct requests since `day` (YYYY-MM-DD) with their counts; newest first. */
export async function loadStoredRequests(
  db: Database,
  connector: { tenantId: string; id: string },
  day: string,
): Promise<StoredRequest[]> {
  const rows = await listStoredRequests(db, connector.tenantId, connector.id, day);
  return rows.map((row) => {
    const request = JSON.parse(row.request) as RecordedRequest;
    for (const check of request.checks) check.known = [...STORED_GLOBAL_KNOWN, ...check.known];
    return { ...row, request };
  });
}

/**
 * The records of one batch folded into distinct requests per day. Requests in the management
 * account are left out: SCPs never restrict it, so no preview counts them. Records of one shape
 * (`requestShapeKey`: the fields their request is derived from) are counted by that key once one
 * of them was derived; the request is derived once per shape, not per record.
 */
export function summariseRecords(
  records: AuditRecord[],
  managementAccountId: string | undefined,
): RequestSummary[] {
  const byText = new Map<string, RequestSummary>();
  /** Day, refusal and shape → its summary, or null for the management account's. */
  const byShape = new Map<string, RequestSummary | null>();
  const days = new Map<number, string>();
  for (const record of records) {
    const detail = cloudTrailDetail(record.raw);
    const refused = isDenial(record.errorCode ?? detail.errorCode);
    const dayNumber = Math.floor(record.time.getTime() / DAY_MS);
    let day = days.get(dayNumber);
    if (day === undefined) {
      day = new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);
      days.set(dayNumber, day);
    }
    const shapeKey = requestShapeKey(detail, {
      principalArn: principalOf(detail, record),
      ...(record.action ? { action: record.action } : {}),
    });
    const shape = shapeKey === undefined ? undefined : `${day}\n${refused}\n${shapeKey}`;
    let seen = shape === undefined ? undefined : byShape.get(shape);
    if (seen === null) continue;
    if (seen === undefined) {
      const request = foldable(requestOf(record, detail));
      if (!request.account || request.account === managementAccountId) {
        if (shape !== undefined) byShape.set(shape, null);
        continue;
      }
      const text = `${day}\n${refused}\n${JSON.stringify(request)}`;
      seen = byText.get(text);
      if (!seen) {
        byText.set(text, {
          day,
          requestKey: createHash("sha256")
            .update(text.slice(day.length + 1))
            .digest("base64url"),
          refused,
          account: request.account,
          action: request.action,
          request,
          count: 1,
          lastEventId: record.id,
          lastSeenAt: record.time,
        });
        if (shape !== undefined) byShape.set(shape, byText.get(text) ?? null);
        continue;
      }
      if (shape !== undefined) byShape.set(shape, seen);
    }
    seen.count += 1;
    if (record.time.getTime() >= seen.lastSeenAt.getTime()) {
      seen.lastSeenAt = record.time;
      seen.lastEventId = record.id;
    }
  }
  return [...byText.values()];
}

/**
 * Stores an AWS batch's requests for the impact preview, and forgets the days it no longer
 * reaches. Answers how many distinct requests of a day the batch held.
 */
export async function storeRequests(
  db: Database,
  connector: { tenantId: string; id: string },
  records: AuditRecord[],
  managementAccountId: string | undefined,
  now: Date,
): Promise<number> {
  const summaries = summariseRecords(records, managementAccountId).map((s) => ({
    ...s,
    request: storedForm(s.request),
  }));
  await addRequestSummaries(db, connector.tenantId, connector.id, summaries);
  const oldest = new Date(now.getTime() - REQUEST_SUMMARY_DAYS * DAY_MS).toISOString().slice(0, 10);
  await pruneRequestSummaries(db, connector.tenantId, connector.id, oldest);
  return summaries.length;
}

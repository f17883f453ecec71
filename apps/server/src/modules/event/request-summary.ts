import { createHash } from "node:crypto";
import type { RecordedRequest } from "@palisade/policy-engine/evaluators/scp/evaluate-recorded";
import type { AuditRecord } from "../../cloud/cloud-provider";
import type { Database } from "../../db/database";
import { cloudTrailDetail, isDenial, requestOf } from "./classify-aws";
import { addRequestSummaries, pruneRequestSummaries } from "./request-summary-repository";

/** How far back requests are kept: the longest period an impact preview covers. */
export const REQUEST_SUMMARY_DAYS = 90;
const DAY_MS = 86_400_000;

/** One distinct request of one day, as the `request_summaries` table keeps it. */
export interface RequestSummary {
  day: string;
  requestKey: string;
  refused: boolean;
  account: string;
  action: string;
  request: RecordedRequest;
  count: number;
  lastEventId: string;
  lastSeenAt: Date;
}

/**
 * Keys that differ from one record to the next (the time, the session's id) and that no
 * guardrail of the catalogue reads: kept, they would make every record a row of its own. Left
 * out, they are unknown, so a guardrail that reads them finds the request not evaluable.
 */
const PER_RECORD_KEYS = new Set(["aws:currenttime", "aws:epochtime", "aws:userid"]);

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

/**
 * The records of one batch folded into distinct requests per day. Requests in the management
 * account are left out: SCPs never restrict it, so no preview counts them.
 */
export function summariseRecords(
  records: AuditRecord[],
  managementAccountId: string | undefined,
): RequestSummary[] {
  const byText = new Map<string, RequestSummary>();
  for (const record of records) {
    const detail = cloudTrailDetail(record.raw);
    const request = foldable(requestOf(record, detail));
    if (!request.account || request.account === managementAccountId) continue;
    const refused = isDenial(record.errorCode ?? detail.errorCode);
    const day = record.time.toISOString().slice(0, 10);
    const text = `${day}\n${refused}\n${JSON.stringify(request)}`;
    const seen = byText.get(text);
    if (seen) {
      seen.count += 1;
      if (record.time.getTime() >= seen.lastSeenAt.getTime()) {
        seen.lastSeenAt = record.time;
        seen.lastEventId = record.id;
      }
      continue;
    }
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
  }
  return [...byText.values()];
}

/** Stores an AWS batch's requests for the impact preview, and forgets the days it no longer reaches. */
export async function storeRequests(
  db: Database,
  connector: { tenantId: string; id: string },
  records: AuditRecord[],
  managementAccountId: string | undefined,
  now: Date,
): Promise<void> {
  const summaries = summariseRecords(records, managementAccountId);
  await addRequestSummaries(db, connector.tenantId, connector.id, summaries);
  const oldest = new Date(now.getTime() - REQUEST_SUMMARY_DAYS * DAY_MS).toISOString().slice(0, 10);
  await pruneRequestSummaries(db, connector.tenantId, connector.id, oldest);
}

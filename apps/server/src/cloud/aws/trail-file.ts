import { constants, gunzipSync } from "node:zlib";
import type { AuditRecord } from "../cloud-provider";

/**
 * One CloudTrail record as a log file holds it
 * (https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-event-reference-record-contents.html).
 */
export interface CloudTrailRecord {
  eventID: string;
  eventTime: string;
  eventSource: string;
  eventName: string;
  awsRegion?: string;
  recipientAccountId?: string;
  errorCode?: string;
  errorMessage?: string;
  userIdentity?: { arn?: string; accountId?: string };
  [field: string]: unknown;
}

/** What a log file gave: its usable records, and why it is not wholly read when it is not. */
export interface ParsedLogFile {
  records: AuditRecord[];
  problem?: { code: "TRAIL_FILE_CORRUPT" | "TRAIL_FILE_SCHEMA"; message: string };
}

function isRecord(value: unknown): value is CloudTrailRecord {
  const r = value as Partial<CloudTrailRecord> | null;
  return (
    typeof r === "object" &&
    r !== null &&
    typeof r.eventID === "string" &&
    r.eventID.length > 0 &&
    typeof r.eventTime === "string" &&
    typeof r.eventSource === "string" &&
    typeof r.eventName === "string"
  );
}

/** The record as the event pipeline reads it; `raw` is the CloudTrail record itself. */
export function trailAuditRecord(record: CloudTrailRecord, time = new Date(record.eventTime)): AuditRecord {
  const dot = record.eventSource.indexOf(".");
  const service = dot < 0 ? record.eventSource : record.eventSource.slice(0, dot);
  return {
    id: record.eventID,
    time,
    action: service ? `${service}:${record.eventName}` : record.eventName,
    principal: record.userIdentity?.arn,
    scopeId: record.recipientAccountId ?? record.userIdentity?.accountId,
    errorCode: record.errorCode,
    errorMessage: record.errorMessage,
    raw: record,
  };
}

function fromRecords(values: unknown[], context: string): ParsedLogFile {
  const records: AuditRecord[] = [];
  let invalid = 0;
  for (const value of values) {
    const time = isRecord(value) ? new Date(value.eventTime) : undefined;
    if (time && !Number.isNaN(time.getTime()))
      records.push(trailAuditRecord(value as CloudTrailRecord, time));
    else invalid += 1;
  }
  return invalid === 0
    ? { records }
    : {
        records,
        problem: {
          code: "TRAIL_FILE_SCHEMA",
          message: `${invalid} of ${values.length} entries of ${context} are not CloudTrail records (eventID, eventTime, eventSource and eventName are required).`,
        },
      };
}

/**
 * The complete objects of the `Records` array of a log file's text that ends early: each `{...}`
 * at depth one of the array, strings skipped, so that a file cut short still yields every record
 * written before the cut.
 */
export function completeRecords(text: string): unknown[] {
  const start = text.search(/"Records"\s*:\s*\[/);
  if (start < 0) return [];
  let i = text.indexOf("[", start) + 1;
  const out: unknown[] = [];
  let depth = 0;
  let from = -1;
  let inString = false;
  for (; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i += 1; // backslash: the next character is escaped
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (depth === 0 && c === 123) from = i;
      depth += 1;
    } else if (c === 125 || c === 93) {
      depth -= 1;
      if (depth < 0) break; // the end of the Records array
      if (depth === 0 && c === 125 && from >= 0) {
        try {
          out.push(JSON.parse(text.slice(from, i + 1)));
        } catch {
          // An object that does not parse is left out; the file is reported as corrupt anyway.
        }
        from = -1;
      }
    }
  }
  return out;
}

/**
 * Reads one `.json.gz` log file: gunzip, then one `JSON.parse` of the whole `{"Records":[...]}`.
 * Both run on the calling thread: the parse blocks as long as the gunzip, and handing the gunzip
 * to the thread pool measured slower (`bench/trail-ingest`).
 * A file that is cut short or corrupt gives the records before the damage and the problem; a JSON
 * document of another shape gives none and says so.
 */
export function parseLogFile(body: Uint8Array, key: string): ParsedLogFile {
  let text: string;
  try {
    text = gunzipSync(body).toString("utf8");
  } catch (error) {
    let partial = "";
    try {
      // Z_SYNC_FLUSH hands back what was inflated before the input ended or broke.
      partial = gunzipSync(body, { finishFlush: constants.Z_SYNC_FLUSH }).toString("utf8");
    } catch {
      // Nothing inflates: no record can be read from this file.
    }
    return {
      records: fromRecords(completeRecords(partial), key).records,
      problem: {
        code: "TRAIL_FILE_CORRUPT",
        message: `${key} is not a complete gzip file: ${(error as Error).message}.`,
      },
    };
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    return {
      records: fromRecords(completeRecords(text), key).records,
      problem: {
        code: "TRAIL_FILE_CORRUPT",
        message: `${key} is not complete JSON: ${(error as Error).message}.`,
      },
    };
  }
  const records = (document as { Records?: unknown } | null)?.Records;
  if (!Array.isArray(records))
    return {
      records: [],
      problem: {
        code: "TRAIL_FILE_SCHEMA",
        message: `${key} is not a CloudTrail log file: it has no "Records" array.`,
      },
    };
  return fromRecords(records, key);
}

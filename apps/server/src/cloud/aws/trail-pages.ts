import { advanceCursor, decodeCursor, encodeCursor } from "../audit-cursor";
import type { AuditPage, AuditRecord } from "../cloud-provider";
import { parseLogFile } from "./trail-file";
import { dayOf, regionFolder } from "./trail-layout";
import { discoverPrefixes } from "./trail-reader";
import { type TrailBucket, TrailError, type TrailSettings } from "./trail-s3";

/**
 * Every record the organisation trail delivered since `since`, in every account and region, a log
 * file at a time: what a replay over a period reads where LookupEvents would answer only the
 * management account in one region. A file that cannot be read fails the read by its name once
 * the others have been read, so no record is left out unsaid. Answers the pages (files) read.
 */
export async function readTrailPages(
  bucket: TrailBucket,
  trail: TrailSettings,
  since: Date,
  onPage: (records: AuditRecord[]) => Promise<void>,
): Promise<number> {
  await bucket.signIn();
  const prefixes = await discoverPrefixes(bucket, trail);
  // A log file's folder is the day it was delivered, never before its records' day.
  const fromDay = dayOf(since);
  let pages = 0;
  const problems: string[] = [];
  for (const prefix of prefixes) {
    const folder = regionFolder(trail.keyPrefix, prefix);
    const keys: string[] = [];
    await bucket.keys(folder, `${folder}${fromDay}`, async (page) => {
      keys.push(...page);
    });
    for (const key of keys) {
      const body = await bucket.get(key);
      const parsed = body ? parseLogFile(body, key) : undefined;
      if (!parsed || parsed.problem) problems.push(parsed?.problem?.message ?? `${key} could not be read.`);
      const records = (parsed?.records ?? []).filter((r) => r.time.getTime() >= since.getTime());
      if (records.length === 0) continue;
      await onPage(records);
      pages += 1;
    }
  }
  if (problems.length > 0)
    throw new TrailError(
      "TRAIL_READ_FAILED",
      `${problems.length} log file(s) of the organisation trail could not be read; the first: ${problems[0]}`,
    );
  return pages;
}

/**
 * A file is delivered about 5 minutes after its records, not guaranteed and out of order
 * (https://docs.aws.amazon.com/awscloudtrail/latest/userguide/how-cloudtrail-works.html): a read
 * after a cursor lists again the hour before the newest record seen.
 */
const TRAIL_REREAD_MS = 60 * 60_000;
const DAY_MS = 86_400_000;

/**
 * The trail's records after a cursor, oldest first, for readers that keep a cursor of their own
 * (recommendations); the event pipeline reads the trail with its file ledger instead.
 */
export async function readTrailEvents(
  bucket: TrailBucket,
  trail: TrailSettings,
  cursorText: string | undefined,
  options?: { since?: Date },
): Promise<AuditPage> {
  const cursor = decodeCursor(cursorText) ?? {
    time: (options?.since ?? new Date(Date.now() - trail.backfillDays * DAY_MS)).toISOString(),
    ids: [],
  };
  const records: AuditRecord[] = [];
  await readTrailPages(bucket, trail, new Date(cursor.time), async (page) => {
    records.push(...page);
  });
  const { fresh, next } = advanceCursor(cursor, records, TRAIL_REREAD_MS);
  return { records: fresh, cursor: encodeCursor(next) };
}

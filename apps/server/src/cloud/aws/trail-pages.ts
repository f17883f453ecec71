import type { AuditRecord } from "../cloud-provider";
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

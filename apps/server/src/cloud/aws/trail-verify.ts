import type { ConnectionCheck } from "../cloud-provider";
import { errorMessage } from "../errors";
import { parseLogFile } from "./trail-file";
import { addDays, dayOf, regionFolder, type TrailPrefix } from "./trail-layout";
import { discoverPrefixes, regionIssue } from "./trail-reader";
import { type TrailBucket, TrailError, type TrailSettings } from "./trail-s3";

/** A trail whose newest file is older than this is reported as not delivering. */
const STALE_DAYS = 2;
/** Newest files tried for a record before the check gives up. */
const NEWEST_FILES_TRIED = 5;

const failed = (name: string, error: unknown): ConnectionCheck => ({
  name,
  ok: false,
  message: error instanceof TrailError ? `${error.code}: ${error.message}` : errorMessage(error),
});

/** `YYYYMMDDTHHmmZ` of a log file's name: when it was delivered. */
const deliveredAt = (key: string) => /_(\d{8}T\d{4}Z)_[^_/]+$/.exec(key)?.[1] ?? "";

function age(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  if (minutes < 120) return `${minutes} minute(s)`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} hour(s)` : `${Math.round(hours / 24)} day(s)`;
}

/**
 * What the organisation trail shows the reader role: the role can be assumed, the bucket holds an
 * organisation trail (its accounts and regions), the connector's region is covered, and how old
 * the newest record is.
 */
export async function verifyTrail(
  bucket: TrailBucket,
  trail: TrailSettings,
  homeRegion: string,
  now: () => Date = () => new Date(),
): Promise<ConnectionCheck[]> {
  const assume = "Assume the trail reader role";
  try {
    await bucket.signIn();
  } catch (error) {
    return [failed(assume, error)];
  }
  const checks: ConnectionCheck[] = [{ name: assume, ok: true, message: `Assumed ${trail.readerRoleArn}.` }];
  const read = "Read the organisation trail";
  let prefixes: TrailPrefix[];
  try {
    prefixes = await discoverPrefixes(bucket, trail);
  } catch (error) {
    return [...checks, failed(read, error)];
  }
  const accounts = new Set(prefixes.map((p) => p.accountId));
  const regions = [...new Set(prefixes.map((p) => p.region))].sort();
  checks.push({
    name: read,
    ok: true,
    message: `s3://${trail.bucket}/${trail.keyPrefix} holds log files of ${accounts.size} account(s) in ${regions.length} region(s): ${regions.join(", ")}.`,
  });
  const issue = regionIssue(prefixes, homeRegion);
  checks.push({
    name: "Regions covered",
    ok: !issue,
    message: issue
      ? `${issue.code}: ${issue.message}`
      : `${homeRegion} and ${regions.length - 1} other region(s).`,
  });
  const newestName = "Newest record";
  try {
    const since = addDays(dayOf(now()), -STALE_DAYS);
    const delivered: { key: string; at: string }[] = [];
    await Promise.all(
      prefixes.map(async (p) => {
        const folder = regionFolder(trail.keyPrefix, p);
        await bucket.keys(folder, `${folder}${since}`, async (keys) => {
          for (const key of keys) {
            const at = deliveredAt(key);
            if (at) delivered.push({ key, at });
          }
        });
      }),
    );
    if (delivered.length === 0) {
      checks.push({
        name: newestName,
        ok: false,
        message: `TRAIL_STALE: no log file was delivered in the last ${STALE_DAYS} days. Check that the organisation trail is logging (CloudTrail > Trails > Status).`,
      });
      return checks;
    }
    // The newest files first; one that cannot be read is reported only when none of them can.
    delivered.sort((a, b) => b.at.localeCompare(a.at));
    let problem = "";
    for (const { key } of delivered.slice(0, NEWEST_FILES_TRIED)) {
      const body = await bucket.get(key);
      const parsed = body ? parseLogFile(body, key) : undefined;
      const times = (parsed?.records ?? []).map((r) => r.time.getTime());
      if (times.length === 0) {
        problem ||= parsed?.problem
          ? `${parsed.problem.code}: ${parsed.problem.message}`
          : `${key} holds no record.`;
        continue;
      }
      checks.push({
        name: newestName,
        ok: true,
        message: `The newest record is ${age(now().getTime() - Math.max(...times))} old (${key}).`,
      });
      return checks;
    }
    checks.push({ name: newestName, ok: false, message: problem });
  } catch (error) {
    checks.push(failed(newestName, error));
  }
  return checks;
}

import type { OrganizationTrailReader, TrailBatch, TrailFileOutcome, TrailIssue } from "../cloud-provider";
import { type ParsedLogFile, parseLogFile } from "./trail-file";
import { logFileDay, logsRoot, prefixName, regionFolder, type TrailPrefix } from "./trail-layout";
import { decodePosition, encodePosition, floorOf, nextFloor } from "./trail-position";
import { type TrailBucket, TrailError, type TrailSettings } from "./trail-s3";

/** Attempts at a file that cannot be read (corrupt, another schema) before it is given up and reported. */
export const MAX_FILE_ATTEMPTS = 3;
/** A batch is handed over once it holds this many records or files. */
const BATCH_RECORDS = 20_000;
const BATCH_FILES = 500;
/** Files of one prefix read at once; the bucket's limiter bounds the requests in flight. */
const FILES_AT_ONCE = 8;
const PREFIXES_AT_ONCE = 4;

const ORG_ID = /^o-[a-z0-9]{10,32}$/;
const ACCOUNT_ID = /^\d{12}$/;
const REGION = /^[a-z]{2}(?:-[a-z]+)+-\d{1,2}$/;

/** The last path segment of a folder prefix (`a/b/c/` → `c`). */
const lastSegment = (folder: string) => folder.slice(0, -1).split("/").at(-1) ?? "";

/**
 * Every account and region folder of the organisation trails under the bucket's prefix. A bucket
 * without `AWSLogs/<org-id>/` holds no organisation trail: that is an error, not an empty read.
 */
export async function discoverPrefixes(bucket: TrailBucket, trail: TrailSettings): Promise<TrailPrefix[]> {
  const root = logsRoot(trail.keyPrefix);
  const orgs = (await bucket.folders(root)).map(lastSegment).filter((id) => ORG_ID.test(id));
  if (orgs.length === 0)
    throw new TrailError(
      "TRAIL_NOT_FOUND",
      `No organisation trail writes to s3://${trail.bucket}/${root} (no AWSLogs/<organisation id>/ folder). Check the bucket and the key prefix of the organisation trail.`,
    );
  const out: TrailPrefix[] = [];
  for (const orgId of orgs) {
    const accounts = (await bucket.folders(`${root}${orgId}/`))
      .map(lastSegment)
      .filter((a) => ACCOUNT_ID.test(a));
    const regions = await Promise.all(
      accounts.map((accountId) => bucket.folders(`${root}${orgId}/${accountId}/CloudTrail/`)),
    );
    accounts.forEach((accountId, i) => {
      for (const region of (regions[i] ?? []).map(lastSegment).filter((r) => REGION.test(r)))
        out.push({ orgId, accountId, region });
    });
  }
  return out;
}

/** The issue of a trail that has no folder of the connector's region. */
export function regionIssue(prefixes: TrailPrefix[], region: string): TrailIssue | undefined {
  if (prefixes.some((p) => p.region === region)) return undefined;
  const regions = [...new Set(prefixes.map((p) => p.region))].sort();
  return {
    code: "TRAIL_REGION_NOT_COVERED",
    message: `The organisation trail has no log files for ${region} (it covers ${regions.join(", ") || "no region"}). Make it a multi-region trail so that denials in every region reach Palisade.`,
  };
}

/** Runs `work` on each item with at most `width` at once; the first failure stops the rest. */
async function eachAtMost<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}

/**
 * Reads the organisation trail from the saved position (see `trail-position.ts`): each prefix's
 * folders from its floor on, each file the ledger does not hold as read or given up, handed to
 * `onBatch` in batches. Only the last batch carries the new position, so a read that stops
 * part-way (a `TrailError`) leaves the position where it was, and the ledger keeps the files the
 * stored batches read.
 */
export function createTrailReader(
  bucket: TrailBucket,
  trail: TrailSettings,
  homeRegion: string,
  now: () => Date = () => new Date(),
): OrganizationTrailReader {
  const source = `s3://${trail.bucket}/${trail.keyPrefix}`;
  return {
    async read(positionText, ledger, onBatch) {
      await bucket.signIn();
      const position = decodePosition(positionText, source, trail.backfillDays, now());
      const prefixes = await discoverPrefixes(bucket, trail);
      const issue = regionIssue(prefixes, homeRegion);

      let pending: TrailBatch = { records: [], files: [] };
      let stored: Promise<void> = Promise.resolve();
      const flush = async () => {
        const batch = pending;
        pending = { records: [], files: [] };
        stored = stored.then(() => onBatch(batch));
        await stored;
      };
      let files = 0;
      let records = 0;
      const unread: TrailFileOutcome[] = [];
      const floors: Record<string, string> = {};

      const readFile = async (key: string, prefix: string, day: string, attempts: number) => {
        const body = await bucket.get(key);
        const parsed: ParsedLogFile = body
          ? parseLogFile(body, key)
          : {
              records: [],
              problem: {
                code: "TRAIL_FILE_CORRUPT",
                message: `${key} was listed but could not be found when read.`,
              },
            };
        const tries = attempts + 1;
        const outcome: TrailFileOutcome = parsed.problem
          ? {
              key,
              prefix,
              day,
              state: tries >= MAX_FILE_ATTEMPTS ? "given_up" : "failed",
              attempts: tries,
              records: parsed.records.length,
              error: `${parsed.problem.code}: ${parsed.problem.message}`,
            }
          : {
              key,
              prefix,
              day,
              state: "read",
              attempts: tries,
              records: parsed.records.length,
              error: undefined,
            };
        if (outcome.state !== "read") unread.push(outcome);
        files += 1;
        records += parsed.records.length;
        // The records of a damaged file are stored too: the file is retried, and `eventID` makes
        // the retry's records no-ops.
        for (const record of parsed.records) pending.records.push(record);
        pending.files.push(outcome);
        if (pending.records.length >= BATCH_RECORDS || pending.files.length >= BATCH_FILES) await flush();
        return outcome;
      };

      await eachAtMost(prefixes, PREFIXES_AT_ONCE, async (p) => {
        const name = prefixName(p);
        const floor = floorOf(position, name);
        const known = await ledger.filesOf(name, floor);
        const folder = regionFolder(trail.keyPrefix, p);
        let newest: string | undefined;
        const toRead: { key: string; day: string; attempts: number }[] = [];
        // Keys of folder `floor` and later sort after `<folder><floor>`.
        await bucket.keys(folder, `${folder}${floor}`, async (keys) => {
          for (const key of keys) {
            const day = logFileDay(folder, p, key);
            if (!day) continue;
            if (!newest || day > newest) newest = day;
            const seen = known.get(key);
            if (seen && seen.state !== "failed") continue;
            toRead.push({ key, day, attempts: seen?.attempts ?? 0 });
          }
        });
        const retried: string[] = [];
        await eachAtMost(toRead, FILES_AT_ONCE, async (f) => {
          const outcome = await readFile(f.key, name, f.day, f.attempts);
          if (outcome.state === "failed") retried.push(f.day);
        });
        floors[name] = nextFloor(floor, newest, retried);
      });

      pending.done = {
        position: encodePosition({ ...position, floors: { ...position.floors, ...floors } }),
        floors,
      };
      await flush();
      return {
        files,
        records,
        accounts: [...new Set(prefixes.map((p) => p.accountId))].sort(),
        regions: [...new Set(prefixes.map((p) => p.region))].sort(),
        unread,
        issues: issue ? [issue] : [],
      };
    },
  };
}

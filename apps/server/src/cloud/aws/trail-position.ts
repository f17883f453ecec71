import { addDays, dayOf } from "./trail-layout";

/**
 * How far an organisation trail has been read, kept in `connectors.event_cursor`.
 *
 * The trail writes each account's files of a region under a folder per delivery day, named by
 * the minute of delivery. Files are not delivered in key order: two files of one prefix may be
 * put minutes apart in the opposite order of their names, and a delivery can be late. A single
 * "newest key read" would skip such a file forever, so the position is two things:
 *
 * - per `<account>/<region>` prefix a **floor**: the day folder listing starts at. Every log file
 *   in an earlier folder was read (or failed its bounded attempts and is reported). The floor
 *   trails the newest folder seen by `RE_READ_WINDOW_DAYS` (the re-read window) and never passes
 *   the folder of a file still to be read or retried;
 * - the **file ledger** (`trail_files`): every key at or above its prefix's floor that was read,
 *   failed or given up. Each read lists every folder from the floor on and reads exactly the
 *   keys the ledger does not hold as read or given up, so a late file in the window is read once
 *   and an early one is never read twice. Ledger rows below the floor are deleted.
 *
 * Records are also idempotent by `eventID` where they are stored, so a read repeated after a
 * crash between the events and the ledger writes stores nothing twice.
 */
export interface TrailPosition {
  kind: "organisation-trail";
  /** Bucket and key prefix the position belongs to; another trail starts from its backfill. */
  source: string;
  /** The first folder of a prefix first seen: the first connection's day less the backfill days. */
  origin: string;
  /** Per `<account>/<region>`, the day folder (`YYYY/MM/DD`) listing starts at. */
  floors: Record<string, string>;
}

/**
 * Days of folders re-listed behind the newest one, for files delivered late or out of order:
 * "CloudTrail typically delivers logs within an average of about 5 minutes of an API call. This
 * time is not guaranteed" (https://docs.aws.amazon.com/awscloudtrail/latest/userguide/get-and-view-cloudtrail-log-files.html), and
 * "a log file delivered at a specific time can contain records written at any point before that
 * time" (https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-log-file-examples.html).
 * A file put late into a folder already listed is found by a read within these days.
 */
export const RE_READ_WINDOW_DAYS = 2;

export function encodePosition(position: TrailPosition): string {
  return JSON.stringify(position);
}

/**
 * The saved position of this trail, or the first connection's: every folder from `backfillDays`
 * ago. A cursor of LookupEvents (the fallback source) or of another bucket starts afresh.
 */
export function decodePosition(
  text: string | undefined | null,
  source: string,
  backfillDays: number,
  now: Date,
): TrailPosition {
  try {
    const value = JSON.parse(text ?? "") as Partial<TrailPosition>;
    if (
      value.kind === "organisation-trail" &&
      value.source === source &&
      typeof value.origin === "string" &&
      value.floors &&
      typeof value.floors === "object"
    ) {
      return { kind: value.kind, source, origin: value.origin, floors: { ...value.floors } };
    }
  } catch {
    // Not a trail position: the first read of this trail.
  }
  return { kind: "organisation-trail", source, origin: addDays(dayOf(now), -backfillDays), floors: {} };
}

export function floorOf(position: TrailPosition, prefix: string): string {
  return position.floors[prefix] ?? position.origin;
}

/**
 * The floor of a prefix after a read: `RE_READ_WINDOW_DAYS` behind the newest folder listed,
 * never past the folder of a file still unread, never back.
 */
export function nextFloor(floor: string, newestDay: string | undefined, unreadDays: string[]): string {
  let next = newestDay ? addDays(newestDay, -RE_READ_WINDOW_DAYS) : floor;
  for (const day of unreadDays) if (day < next) next = day;
  return next > floor ? next : floor;
}

import type { AuditRecord } from "./cloud-provider";

/**
 * Where a connector's audit stream is read from next, and the ids of the records already returned
 * at or after that time. Providers list records by the time the action happened, but a record
 * becomes listable only once delivered, minutes later and in any order: the next read starts a
 * re-read window (`overlapMs`) before the newest record seen, and drops the ids already returned.
 * A record delivered within the window after a newer one is returned once, on the read after it
 * arrives.
 */
export interface AuditCursor {
  /** The start of the next read, inclusive. */
  time: string;
  ids: string[];
}

export function encodeCursor(cursor: AuditCursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString("base64url");
}

export function decodeCursor(text: string | undefined): AuditCursor | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as Partial<AuditCursor>;
    if (typeof value.time !== "string" || Number.isNaN(Date.parse(value.time))) return undefined;
    const ids = Array.isArray(value.ids)
      ? value.ids.filter((id): id is string => typeof id === "string")
      : [];
    return { time: new Date(value.time).toISOString(), ids };
  } catch {
    return undefined;
  }
}

/**
 * The records of a read from `cursor.time` not returned before, oldest first, and the cursor of
 * the next read: `overlapMs` before the newest record listed (never earlier than this read's
 * start), with the ids of every listed record from there on.
 */
export function advanceCursor(
  cursor: AuditCursor,
  records: AuditRecord[],
  overlapMs: number,
): { fresh: AuditRecord[]; next: AuditCursor } {
  const from = Date.parse(cursor.time);
  const seen = new Set(cursor.ids);
  const listed = new Map<string, AuditRecord>();
  for (const record of records) if (record.time.getTime() >= from) listed.set(record.id, record);
  const byTime = (a: AuditRecord, b: AuditRecord) =>
    a.time.getTime() - b.time.getTime() || a.id.localeCompare(b.id);
  const fresh = [...listed.values()].filter((r) => !seen.has(r.id)).sort(byTime);
  let newest = from;
  for (const record of listed.values()) newest = Math.max(newest, record.time.getTime());
  const start = Math.max(from, newest - overlapMs);
  const ids = [...listed.values()].filter((r) => r.time.getTime() >= start).map((r) => r.id);
  return { fresh, next: { time: new Date(start).toISOString(), ids } };
}

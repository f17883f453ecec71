import type { AuditRecord } from "./cloud-provider";

/**
 * Where a connector's audit stream was read up to: the time of the newest record seen and the ids
 * of the records at exactly that time. Providers filter by time only, inclusively, so the next
 * read starts at that time and drops the ids it already returned.
 */
export interface AuditCursor {
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

/** The records not seen before, oldest first, and the cursor after them. */
export function advanceCursor(
  cursor: AuditCursor,
  records: AuditRecord[],
): { fresh: AuditRecord[]; next: AuditCursor } {
  const from = Date.parse(cursor.time);
  const seen = new Set(cursor.ids);
  const unique = new Map<string, AuditRecord>();
  for (const record of records) {
    const at = record.time.getTime();
    if (at < from || (at === from && seen.has(record.id))) continue;
    unique.set(record.id, record);
  }
  const fresh = [...unique.values()].sort(
    (a, b) => a.time.getTime() - b.time.getTime() || a.id.localeCompare(b.id),
  );
  const last = fresh.at(-1);
  if (!last) return { fresh, next: cursor };
  const newest = last.time.getTime();
  const atNewest = fresh.filter((r) => r.time.getTime() === newest).map((r) => r.id);
  return {
    fresh,
    next: {
      time: last.time.toISOString(),
      ids: newest === from ? [...cursor.ids, ...atNewest] : atNewest,
    },
  };
}

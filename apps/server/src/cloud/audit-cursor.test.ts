import { describe, expect, it } from "vitest";
import { advanceCursor, decodeCursor, encodeCursor } from "./audit-cursor";
import type { AuditRecord } from "./cloud-provider";

const record = (id: string, iso: string): AuditRecord => ({
  id,
  time: new Date(iso),
  action: "s3:CreateBucket",
  principal: undefined,
  scopeId: undefined,
  errorCode: undefined,
  errorMessage: undefined,
  raw: {},
});

const T0 = "2026-01-01T00:00:00.000Z";
const T1 = "2026-01-01T00:00:01.000Z";
const T2 = "2026-01-01T00:00:02.000Z";

const T3 = "2026-01-01T00:00:03.000Z";
const MINUTE = 60_000;

describe("advanceCursor", () => {
  it.each([
    {
      name: "returns new records oldest first and starts the next read a window before the newest",
      cursor: { time: T0, ids: [] },
      records: [record("c", T2), record("b", T1), record("a", T0)],
      overlapMs: 1000,
      fresh: ["a", "b", "c"],
      next: { time: T1, ids: ["c", "b"] },
    },
    {
      name: "drops records already returned within the window",
      cursor: { time: T1, ids: ["b"] },
      records: [record("d", T1), record("b", T1)],
      overlapMs: MINUTE,
      fresh: ["d"],
      next: { time: T1, ids: ["d", "b"] },
    },
    {
      name: "keeps the cursor when nothing is new",
      cursor: { time: T1, ids: ["b"] },
      records: [record("b", T1)],
      overlapMs: MINUTE,
      fresh: [],
      next: { time: T1, ids: ["b"] },
    },
    {
      name: "returns a record listed twice (across pages) once",
      cursor: { time: T0, ids: [] },
      records: [record("x", T1), record("x", T1), record("y", T1)],
      overlapMs: MINUTE,
      fresh: ["x", "y"],
      next: { time: T0, ids: ["x", "y"] },
    },
    {
      name: "ignores records before the read's start",
      cursor: { time: T1, ids: [] },
      records: [record("old", T0), record("b", T2)],
      overlapMs: 0,
      fresh: ["b"],
      next: { time: T2, ids: ["b"] },
    },
  ])("$name", ({ cursor, records, overlapMs, fresh, next }) => {
    const out = advanceCursor(cursor, records, overlapMs);
    expect(out.fresh.map((r) => r.id)).toEqual(fresh);
    expect(out.next).toEqual(next);
  });

  // What the provider lists on each read: "late" happened at T1 but is delivered after "new" (T2).
  const deliveries = [
    [record("new", T2)],
    [record("late", T1), record("new", T2)],
    [record("late", T1), record("new", T2), record("newest", T3)],
    [record("late", T1), record("new", T2), record("newest", T3)],
  ];
  function readAll(overlapMs: number): string[] {
    let cursor = { time: T0, ids: [] as string[] };
    const returned: string[] = [];
    for (const listed of deliveries) {
      const from = Date.parse(cursor.time);
      const out = advanceCursor(
        cursor,
        listed.filter((r) => r.time.getTime() >= from),
        overlapMs,
      );
      returned.push(...out.fresh.map((r) => r.id));
      cursor = out.next;
    }
    return returned;
  }

  it("reads a record delivered after a newer one exactly once", () => {
    expect(readAll(MINUTE)).toEqual(["new", "late", "newest"]);
  });

  it("loses that record without a re-read window", () => {
    expect(readAll(0)).toEqual(["new", "newest"]);
  });
});

describe("cursor text", () => {
  it("round-trips", () => {
    const cursor = { time: T1, ids: ["a", "b"] };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
  });

  it.each([undefined, "", "not base64 json", Buffer.from('{"time":"yesterday"}').toString("base64url")])(
    "reads %s as no cursor",
    (text) => {
      expect(decodeCursor(text)).toBeUndefined();
    },
  );
});

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

describe("advanceCursor", () => {
  it.each([
    {
      name: "returns new records oldest first and points at the newest",
      cursor: { time: T0, ids: [] },
      records: [record("c", T2), record("b", T1), record("a", T0)],
      fresh: ["a", "b", "c"],
      next: { time: T2, ids: ["c"] },
    },
    {
      name: "drops records already returned at the cursor's time",
      cursor: { time: T1, ids: ["b"] },
      records: [record("d", T1), record("b", T1), record("a", T0)],
      fresh: ["d"],
      next: { time: T1, ids: ["b", "d"] },
    },
    {
      name: "keeps the cursor when nothing is new",
      cursor: { time: T1, ids: ["b"] },
      records: [record("b", T1)],
      fresh: [],
      next: { time: T1, ids: ["b"] },
    },
    {
      name: "returns a record listed twice (across pages) once",
      cursor: { time: T0, ids: [] },
      records: [record("x", T1), record("x", T1), record("y", T1)],
      fresh: ["x", "y"],
      next: { time: T1, ids: ["x", "y"] },
    },
  ])("$name", ({ cursor, records, fresh, next }) => {
    const out = advanceCursor(cursor, records);
    expect(out.fresh.map((r) => r.id)).toEqual(fresh);
    expect(out.next).toEqual(next);
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

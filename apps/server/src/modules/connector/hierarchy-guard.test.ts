import { describe, expect, it } from "vitest";
import { refuseMassRemoval } from "./hierarchy-guard";

const ids = (n: number, prefix = "/subscriptions/s") => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe("refuseMassRemoval", () => {
  it("refuses a read that would remove more than half of the stored scopes", () => {
    const stored = ids(30);
    expect(refuseMassRemoval(stored, stored.slice(0, 14))).toMatch(
      /listed 14 scope\(s\) and 16 of the 30 known ones would be removed .*\/subscriptions\/s14/,
    );
    expect(refuseMassRemoval(stored, [])).toBeDefined();
  });

  it("applies a sync that removes half or less, or only a couple of scopes", () => {
    const stored = ids(30);
    expect(refuseMassRemoval(stored, stored.slice(0, 15))).toBeUndefined();
    expect(refuseMassRemoval(stored, [...stored.slice(0, 20), ...ids(40, "/new/")])).toBeUndefined();
    expect(refuseMassRemoval(ids(4), ids(2))).toBeUndefined();
    expect(refuseMassRemoval([], ids(3))).toBeUndefined();
  });

  it("compares external ids without regard to case, as ARM does", () => {
    const stored = ids(10);
    expect(
      refuseMassRemoval(
        stored,
        stored.map((id) => id.toUpperCase()),
      ),
    ).toBeUndefined();
  });
});

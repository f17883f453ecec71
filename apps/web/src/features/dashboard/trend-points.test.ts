import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { compliancePercent, trendPoints } from "./trend-points";

describe("trendPoints", () => {
  it("labels each point by its UTC day and keeps its totals", () => {
    const points = [
      {
        time: timestampFromDate(new Date("2026-11-20T00:00:00Z")),
        totals: { compliant: 3, nonCompliant: 1 },
      },
      { time: timestampFromDate(new Date("2026-11-21T23:30:00Z")), totals: undefined },
      { totals: { compliant: 9, nonCompliant: 9 } },
    ];
    expect(trendPoints(points)).toEqual([
      { day: "2026-11-20", compliant: 3, nonCompliant: 1 },
      { day: "2026-11-21", compliant: 0, nonCompliant: 0 },
    ]);
  });
});

describe("compliancePercent", () => {
  it.each([
    [undefined, null],
    [{ compliant: 0, nonCompliant: 0 }, null],
    [{ compliant: 3, nonCompliant: 1 }, 75],
    [{ compliant: 2, nonCompliant: 1 }, 67],
    [{ compliant: 0, nonCompliant: 5 }, 0],
  ])("%j -> %j", (totals, expected) => {
    expect(compliancePercent(totals)).toBe(expected);
  });
});

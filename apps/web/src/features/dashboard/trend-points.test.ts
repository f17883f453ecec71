import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { compliancePercent, trendFigure, trendPoints } from "./trend-points";

const at = (day: string) => timestampFromDate(new Date(`${day}T00:00:00Z`));

describe("trendPoints", () => {
  it("labels each point by its UTC day and leaves days without data empty, not zero", () => {
    const points = [
      { time: at("2026-11-20"), totals: { compliant: 3, nonCompliant: 1 } },
      { time: timestampFromDate(new Date("2026-11-21T23:30:00Z")), totals: undefined },
      { time: at("2026-11-22"), totals: { compliant: 0, nonCompliant: 0 } },
      { time: at("2026-11-23"), totals: { compliant: 0, nonCompliant: 2 } },
      { totals: { compliant: 9, nonCompliant: 9 } },
    ];
    expect(trendPoints(points)).toEqual([
      { day: "2026-11-20", compliant: 3, nonCompliant: 1 },
      { day: "2026-11-21", compliant: null, nonCompliant: null },
      { day: "2026-11-22", compliant: null, nonCompliant: null },
      { day: "2026-11-23", compliant: 0, nonCompliant: 2 },
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

describe("trendFigure", () => {
  it("says of how many resources and since which day", () => {
    const points = trendPoints([
      { time: at("2026-11-19"), totals: { compliant: 0, nonCompliant: 0 } },
      { time: at("2026-11-20"), totals: { compliant: 3, nonCompliant: 1 } },
      { time: at("2026-11-21"), totals: { compliant: 4, nonCompliant: 1 } },
    ]);
    expect(trendFigure(points, { compliant: 4, nonCompliant: 1 })).toEqual({
      percent: 80,
      compliant: 4,
      resources: 5,
      firstDay: "2026-11-20",
      lastDay: "2026-11-21",
      gaps: 1,
    });
    expect(trendFigure([], undefined).percent).toBeNull();
  });
});

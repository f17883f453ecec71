import { describe, expect, it } from "vitest";
import { approvedFigure } from "./waiver-analytics-card";

describe("the approved figure", () => {
  it("says no decisions yet while every request is pending, rather than 0%", () => {
    expect(approvedFigure({ decided: 0, approvalRate: 0 })).toBe("no decisions yet");
  });

  it("is the share of decided requests once there are some", () => {
    expect(approvedFigure({ decided: 4, approvalRate: 0 })).toBe("0%");
    expect(approvedFigure({ decided: 3, approvalRate: 2 / 3 })).toBe("67%");
  });
});

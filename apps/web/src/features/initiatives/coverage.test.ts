import { describe, expect, it } from "vitest";
import { coveragePercent } from "./coverage";

describe("coveragePercent", () => {
  it.each([
    [0, 0, 0],
    [10, 0, 0],
    [10, 10, 100],
    [3, 1, 33],
    [3, 2, 67],
  ])("%d clauses, %d covered -> %d%%", (clausesCount, coveredClausesCount, expected) => {
    expect(coveragePercent({ clausesCount, coveredClausesCount })).toBe(expected);
  });
});

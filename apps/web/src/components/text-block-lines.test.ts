import { describe, expect, it } from "vitest";
import { clampLines } from "./text-block-lines";

describe("clampLines", () => {
  it.each([
    [undefined, 6],
    [Number.NaN, 6],
    [1, 1],
    [6, 6],
    [12, 12],
    [0, 1],
    [-4, 1],
    [13, 12],
    [100, 12],
    [3.4, 3],
  ])("%s -> %i", (input, expected) => {
    expect(clampLines(input)).toBe(expected);
  });
});

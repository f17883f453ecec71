import { describe, expect, it } from "vitest";
import { scrollProgress } from "./scroll-indicator";

describe("scrollProgress", () => {
  it.each([
    [0, 1000, 400, 0],
    [300, 1000, 400, 50],
    [600, 1000, 400, 100],
    [650, 1000, 400, 100],
    [0, 300, 400, 100],
  ])("scrolled %i of %i in a %i view -> %i%%", (top, height, view, expected) => {
    expect(scrollProgress(top, height, view)).toBe(expected);
  });
});

import { describe, expect, it } from "vitest";
import { once } from "./tenant-reads";

describe("once", () => {
  it("loads on the first call only and shares the result", async () => {
    let loads = 0;
    const read = once(async () => ++loads);
    expect(await Promise.all([read(), read()])).toEqual([1, 1]);
    expect(await read()).toBe(1);
    expect(loads).toBe(1);
  });

  it("does not load until asked", () => {
    let loads = 0;
    once(async () => ++loads);
    expect(loads).toBe(0);
  });
});

import { describe, expect, it } from "vitest";
import { afterFirstPaint } from "./after-first-paint";

describe("afterFirstPaint", () => {
  it("settles without a paint observer, and gives the same answer to every caller", async () => {
    const first = afterFirstPaint();
    expect(afterFirstPaint()).toBe(first);
    await expect(first).resolves.toBeUndefined();
  });
});

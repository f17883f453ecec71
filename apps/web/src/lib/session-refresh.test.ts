import { describe, expect, it } from "vitest";
import { MAX_TIMER_MS, refreshDelayMs, refreshIsDue } from "./session-refresh";

describe("session refresh timing", () => {
  const now = Date.UTC(2026, 10, 23, 12, 0, 0);

  it("refreshes 20 seconds before the session expires", () => {
    expect(refreshDelayMs(new Date(now + 60_000), now)).toBe(40_000);
    expect(refreshIsDue(new Date(now + 60_000), now)).toBe(false);
  });

  it("refreshes at once when that moment has passed, or the session already expired", () => {
    expect(refreshDelayMs(new Date(now + 10_000), now)).toBe(0);
    expect(refreshDelayMs(new Date(now - 60_000), now)).toBe(0);
    expect(refreshIsDue(new Date(now - 60_000), now)).toBe(true);
  });

  it("caps the timer at 2^31 - 1 ms", () => {
    expect(refreshDelayMs(new Date(now + 60 * 24 * 3_600_000), now)).toBe(MAX_TIMER_MS);
  });
});

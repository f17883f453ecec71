import { describe, expect, it } from "vitest";
import { createRateLimiter } from "./rate-limiter";

describe("createRateLimiter", () => {
  it("allows a burst, then refuses with the seconds until the next token", () => {
    const limiter = createRateLimiter({ burst: 3, perSecond: 0.5 });
    const t0 = 1_000_000;
    expect([1, 2, 3].map(() => limiter.take("a", t0).allowed)).toEqual([true, true, true]);
    expect(limiter.take("a", t0)).toEqual({ allowed: false, retryAfterSeconds: 2 });
  });

  it("refills over time and keeps keys apart", () => {
    const limiter = createRateLimiter({ burst: 1, perSecond: 1 });
    expect(limiter.take("a", 0).allowed).toBe(true);
    expect(limiter.take("a", 500).allowed).toBe(false);
    expect(limiter.take("b", 500).allowed).toBe(true);
    expect(limiter.take("a", 1500).allowed).toBe(true);
  });

  it("forgets the oldest key when full", () => {
    const limiter = createRateLimiter({ burst: 1, perSecond: 0.001, maxKeys: 2 });
    limiter.take("a", 0);
    limiter.take("b", 0);
    limiter.take("c", 0);
    expect(limiter.take("a", 0).allowed).toBe(true);
  });
});

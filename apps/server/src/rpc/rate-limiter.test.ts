import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../db/database";
import { createRateLimiter, type RateLimiter } from "./rate-limiter";

describe("the shared rate limiter (PGlite)", () => {
  let dataDir: string;
  let database: DatabaseHandle;
  let limiter: RateLimiter;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "palisade-rate-"));
    database = await openDatabase({ dataDir });
    await database.migrate();
    limiter = createRateLimiter(database.db, { burst: 3, perSecond: 0.5 });
  });
  afterAll(async () => {
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("allows a burst, then refuses with the seconds until the next token", async () => {
    const verdicts = await Promise.all([1, 2, 3, 4].map(() => limiter.take("a")));
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(3);
    expect(await limiter.take("a")).toEqual({ allowed: false, retryAfterSeconds: 2 });
  });

  it("keeps keys and rules apart, and refills over time", async () => {
    expect((await limiter.take("b")).allowed).toBe(true);
    const fast = { burst: 1, perSecond: 20 };
    expect((await limiter.take("c", fast)).allowed).toBe(true);
    expect((await limiter.take("c", fast)).allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect((await limiter.take("c", fast)).allowed).toBe(true);
  });

  it("counts calls in a fixed window", async () => {
    const rule = { window: 60, max: 2 };
    const verdicts = await Promise.all([1, 2, 3].map(() => limiter.count("w", rule)));
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(2);
    const refused = await limiter.count("w", rule);
    expect(refused.allowed).toBe(false);
    expect(refused.allowed ? 0 : refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect((await limiter.count("w2", rule)).allowed).toBe(true);
  });

  it("states what a check costs", async () => {
    const checks = 300;
    const started = performance.now();
    for (let i = 0; i < checks; i++) await limiter.take(`cost-${i % 30}`);
    const msPerCheck = (performance.now() - started) / checks;
    console.log(`rate limit check on PGlite: ${msPerCheck.toFixed(3)} ms`);
    expect(msPerCheck).toBeGreaterThan(0);
  });
});

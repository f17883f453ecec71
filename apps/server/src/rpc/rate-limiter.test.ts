import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, type DatabaseHandle, openDatabase } from "../db/database";
import { createRateLimiter, leaseSize, type RateLimiter, windowLeaseSize } from "./rate-limiter";

/** The database, counting the statements a limiter sends (each of its statements is one upsert). */
function counted(db: Database): { db: Database; writes: () => number } {
  let writes = 0;
  const wrapped = new Proxy(db, {
    get(target, property, receiver) {
      if (property !== "execute") return Reflect.get(target, property, receiver);
      return (...args: Parameters<Database["execute"]>) => {
        writes++;
        return target.execute(...args);
      };
    },
  });
  return { db: wrapped, writes: () => writes };
}

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

  it("serves N allowed calls in a row with at most ceil(N / lease) database writes", async () => {
    const rule = { burst: 100, perSecond: 10 };
    const lease = leaseSize(rule);
    expect(lease).toBe(10);
    const { db, writes } = counted(database.db);
    const replica = createRateLimiter(db, rule, "lease");
    const calls = 45;
    const verdicts = [];
    for (let i = 0; i < calls; i++) verdicts.push(await replica.take("client"));
    expect(verdicts.every((v) => v.allowed)).toBe(true);
    expect(writes()).toBeLessThanOrEqual(Math.ceil(calls / lease));
    // Concurrent calls wait for one lease rather than each writing.
    const before = writes();
    await Promise.all(Array.from({ length: 10 }, () => replica.take("burst")));
    expect(writes() - before).toBe(1);
  });

  it("refuses from memory until the next token is due", async () => {
    const { db, writes } = counted(database.db);
    const replica = createRateLimiter(db, { burst: 2, perSecond: 0.1 }, "refuse");
    expect((await replica.take("client")).allowed).toBe(true);
    expect((await replica.take("client")).allowed).toBe(true);
    const first = await replica.take("client");
    expect(first).toEqual({ allowed: false, retryAfterSeconds: 10 });
    const afterRefusal = writes();
    const refusals = await Promise.all(Array.from({ length: 20 }, () => replica.take("client")));
    expect(refusals.every((v) => !v.allowed && v.retryAfterSeconds <= 10)).toBe(true);
    expect(writes()).toBe(afterRefusal);
  });

  it("shares a bucket between replicas, beyond it by at most one lease each", async () => {
    const rule = { burst: 20, perSecond: 5 };
    const replicas = [
      createRateLimiter(database.db, rule, "shared"),
      createRateLimiter(database.db, rule, "shared"),
    ];
    const began = performance.now();
    let allowed = 0;
    for (let i = 0; i < 60; i++)
      if ((await (replicas[i % 2] as RateLimiter).take("client")).allowed) allowed++;
    const refilled = ((performance.now() - began) / 1000) * rule.perSecond;
    expect(allowed).toBeGreaterThanOrEqual(rule.burst);
    expect(allowed).toBeLessThanOrEqual(rule.burst + refilled + 2 * leaseSize(rule));
  });

  it("leases window calls, never more than the window's max across replicas", async () => {
    const rule = { window: 60, max: 30 };
    const { db, writes } = counted(database.db);
    const unused = { burst: 1, perSecond: 1 };
    const replicas = [createRateLimiter(db, unused, "window"), createRateLimiter(db, unused, "window")];
    const verdicts = [];
    for (let i = 0; i < 40; i++) verdicts.push(await (replicas[i % 2] as RateLimiter).count("client", rule));
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(rule.max);
    expect(verdicts.slice(0, rule.max).every((v) => v.allowed)).toBe(true);
    // Each replica's last lease may find the window full: one write more each.
    expect(writes()).toBeLessThanOrEqual(Math.ceil(rule.max / windowLeaseSize(rule)) + 2);
    const refused = verdicts.at(-1);
    expect(refused?.allowed ? 0 : refused?.retryAfterSeconds).toBeGreaterThan(55);
  });

  it("serves visitors at once with provisional leases, granted for many keys in one statement, within the limit", async () => {
    const rule = { burst: 5, perSecond: 1 };
    const { db, writes } = counted(database.db);
    const replica = createRateLimiter(db, rule, "provisional", { provisional: true });
    const visitors = await Promise.all(Array.from({ length: 50 }, (_, i) => replica.take(`visitor-${i}`)));
    expect(visitors.every((v) => v.allowed)).toBe(true);
    // Answered before any statement; then one statement leases for all fifty.
    expect(writes()).toBe(0);
    for (let waited = 0; writes() === 0 && waited < 10_000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(writes()).toBe(1);

    // One visitor calling on and on gets the bucket, its refill and at most one lease more.
    const began = performance.now();
    const verdicts = [];
    for (let i = 0; i < 40; i++) {
      verdicts.push(await replica.take("greedy"));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const refilled = ((performance.now() - began) / 1000) * rule.perSecond;
    const allowed = verdicts.filter((v) => v.allowed).length;
    expect(allowed).toBeGreaterThanOrEqual(rule.burst);
    expect(allowed).toBeLessThanOrEqual(rule.burst + Math.ceil(refilled) + leaseSize(rule));
    expect(verdicts.at(-1)).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it("states what a check costs, with leases of one token and of one second's refill", async () => {
    const rule = { burst: 1_000_000, perSecond: 1_000 };
    const checks = 300;
    const costs = [];
    for (const leaseSeconds of [0.001, 1]) {
      const limiter = createRateLimiter(database.db, rule, `cost-${leaseSeconds}`, { leaseSeconds });
      const times = [];
      for (let i = 0; i < checks; i++) {
        const started = performance.now();
        await limiter.take(`client-${i % 30}`);
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      const p50 = times[checks / 2] ?? Number.NaN;
      costs.push(`lease ${leaseSize(rule, leaseSeconds)}: p50 ${p50.toFixed(3)} ms`);
    }
    console.log(`rate limit check on PGlite (${checks} checks, 30 clients): ${costs.join(", ")}`);
  });
});

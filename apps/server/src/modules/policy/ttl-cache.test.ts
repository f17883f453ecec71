import { describe, expect, it } from "vitest";
import { createTtlCache } from "./ttl-cache";

describe("createTtlCache", () => {
  it("loads once within the time to live, again after it", async () => {
    const cache = createTtlCache<number>({ ttlMs: 1000, maxEntries: 10 });
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get("k", load, 0)).toBe(1);
    expect(await cache.get("k", load, 999)).toBe(1);
    expect(await cache.get("k", load, 1000)).toBe(2);
  });

  it("forgets the oldest entry when full", async () => {
    const cache = createTtlCache<string>({ ttlMs: 1000, maxEntries: 2 });
    await cache.get("a", async () => "a1", 0);
    await cache.get("b", async () => "b1", 0);
    await cache.get("c", async () => "c1", 0);
    expect(await cache.get("a", async () => "a2", 1)).toBe("a2");
    expect(await cache.get("c", async () => "c2", 1)).toBe("c1");
  });
});

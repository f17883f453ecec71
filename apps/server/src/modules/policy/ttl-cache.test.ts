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

  it("loads once for callers missing the same key at once", async () => {
    const cache = createTtlCache<number>({ ttlMs: 1000, maxEntries: 10 });
    let loads = 0;
    const load = async () => {
      loads++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return loads;
    };
    expect(
      await Promise.all([cache.get("k", load, 0), cache.get("k", load, 0), cache.get("k", load, 0)]),
    ).toEqual([1, 1, 1]);
    expect(loads).toBe(1);
  });

  it("never keeps a load that began before the key was forgotten", async () => {
    const cache = createTtlCache<string>({ ttlMs: 1000, maxEntries: 10 });
    let release: (value: string) => void = () => undefined;
    const before = cache.get("k", () => new Promise<string>((resolve) => (release = resolve)), 0);
    // The bundle changes while its old card is being read: the notification forgets the key.
    cache.delete("k");
    const after = cache.get("k", async () => "deleted", 1);
    release("live");
    expect(await before).toBe("live");
    expect(await after).toBe("deleted");
    expect(await cache.get("k", async () => "reloaded", 2)).toBe("deleted");

    const cleared = cache.get("c", () => new Promise<string>((resolve) => (release = resolve)), 0);
    cache.clear();
    release("old");
    await cleared;
    expect(await cache.get("c", async () => "new", 1)).toBe("new");
  });

  it("answers from the cache near an entry's end while it reloads, never past its end", async () => {
    const cache = createTtlCache<string>({ ttlMs: 1000, maxEntries: 10, refreshAheadMs: 200 });
    await cache.get("k", async () => "v1", 0);
    let release: (value: string) => void = () => undefined;
    let loads = 0;
    const slow = () => {
      loads++;
      return new Promise<string>((resolve) => (release = resolve));
    };
    expect(await cache.get("k", slow, 500)).toBe("v1");
    expect(loads).toBe(0);
    // Within the last 200 ms: the cached answer, and one reload in the background.
    expect(await cache.get("k", slow, 850)).toBe("v1");
    expect(await cache.get("k", slow, 900)).toBe("v1");
    expect(loads).toBe(1);
    release("v2");
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await cache.get("k", slow, 1500)).toBe("v2");
    expect(loads).toBe(1);

    // A reload still running at the entry's end: the caller waits for it, not for the old answer.
    const stale = cache.get("k", slow, 1800);
    expect(await stale).toBe("v2");
    const waiting = cache.get("k", slow, 1900);
    release("v3");
    expect(await waiting).toBe("v3");
  });
});

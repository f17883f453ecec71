/**
 * A small in-memory cache whose entries live `ttlMs`. The public key lookup answers every
 * engineer a guardrail denies, so repeated lookups of one key must not each reach the
 * database; an entry is at most `ttlMs` stale (counted from when its load began).
 *
 * - Callers missing the same key at once share one load.
 * - An entry asked for within `refreshAheadMs` of its end is answered from the cache and reloaded
 *   meanwhile, so a key in steady use never makes a caller wait for the database.
 * - `delete` and `clear` also void loads in flight: a load that began before the change is handed
 *   to the callers already waiting for it, but never kept, and a caller arriving after the change
 *   starts a load of its own.
 */
export function createTtlCache<V>(options: { ttlMs: number; maxEntries: number; refreshAheadMs?: number }) {
  const entries = new Map<string, { value: V; expiresAt: number }>();
  /** Loads in flight; `delete` and `clear` drop them, and a load no longer here is not kept. */
  const loading = new Map<string, Promise<V>>();

  const store = (key: string, value: V, expiresAt: number) => {
    entries.delete(key);
    if (entries.size >= options.maxEntries) {
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) entries.delete(oldest);
    }
    entries.set(key, { value, expiresAt });
  };

  const loadShared = (key: string, load: () => Promise<V>, now: number): Promise<V> => {
    const inFlight = loading.get(key);
    if (inFlight) return inFlight;
    const promise: Promise<V> = load()
      .then((value) => {
        if (loading.get(key) === promise) store(key, value, now + options.ttlMs);
        return value;
      })
      .finally(() => {
        if (loading.get(key) === promise) loading.delete(key);
      });
    loading.set(key, promise);
    return promise;
  };

  return {
    async get(key: string, load: () => Promise<V>, now = Date.now()): Promise<V> {
      const hit = entries.get(key);
      if (hit && hit.expiresAt > now) {
        if (options.refreshAheadMs && hit.expiresAt - now <= options.refreshAheadMs && !loading.has(key)) {
          // A failed reload leaves the entry to its end; the first caller after it loads and sees why.
          loadShared(key, load, now).catch(() => undefined);
        }
        return hit.value;
      }
      return loadShared(key, load, now);
    },
    /** Forgets one key (its answer changed), and any load of it in flight. */
    delete(key: string): void {
      entries.delete(key);
      loading.delete(key);
    },
    clear(): void {
      entries.clear();
      loading.clear();
    },
  };
}

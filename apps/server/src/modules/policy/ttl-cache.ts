/**
 * A small in-memory cache whose entries live `ttlMs`. The public key lookup answers every
 * engineer a guardrail denies, so repeated lookups of one key must not each reach the
 * database; an entry is at most `ttlMs` stale.
 */
export function createTtlCache<V>(options: { ttlMs: number; maxEntries: number }) {
  const entries = new Map<string, { value: V; expiresAt: number }>();
  return {
    async get(key: string, load: () => Promise<V>, now = Date.now()): Promise<V> {
      const hit = entries.get(key);
      if (hit && hit.expiresAt > now) return hit.value;
      const value = await load();
      if (entries.size >= options.maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      entries.delete(key);
      entries.set(key, { value, expiresAt: now + options.ttlMs });
      return value;
    },
    /** Forgets one key (its answer changed). */
    delete(key: string): void {
      entries.delete(key);
    },
    clear(): void {
      entries.clear();
    },
  };
}

/** A token bucket per key: `burst` calls at once, refilled at `perSecond`. In memory. */
export interface RateLimiter {
  /** Takes one token; when none is left, says how many seconds until one is. */
  take(key: string, now?: number): { allowed: true } | { allowed: false; retryAfterSeconds: number };
}

export function createRateLimiter(options: {
  burst: number;
  perSecond: number;
  maxKeys?: number;
}): RateLimiter {
  const buckets = new Map<string, { tokens: number; updatedAt: number }>();
  const maxKeys = options.maxKeys ?? 50_000;
  return {
    take(key, now = Date.now()) {
      let bucket = buckets.get(key);
      if (!bucket) {
        // Forget the oldest keys rather than grow without bound under a spray of addresses.
        if (buckets.size >= maxKeys) {
          const oldest = buckets.keys().next().value;
          if (oldest !== undefined) buckets.delete(oldest);
        }
        bucket = { tokens: options.burst, updatedAt: now };
        buckets.set(key, bucket);
      }
      const elapsedSeconds = Math.max(0, now - bucket.updatedAt) / 1000;
      bucket.tokens = Math.min(options.burst, bucket.tokens + elapsedSeconds * options.perSecond);
      bucket.updatedAt = now;
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { allowed: true };
      }
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / options.perSecond)),
      };
    },
  };
}

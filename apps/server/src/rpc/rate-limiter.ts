import type { Database } from "../db/database";
import { type BucketRule, takeBucketToken, takeWindowSlot, type WindowRule } from "./rate-limit-repository";

export type RateVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** A token bucket (or a fixed window) per key: `burst` calls at once, refilled at `perSecond`. */
export interface RateLimiter {
  /** Takes one token; when none is left, says how many seconds until one is. */
  take(key: string, rule?: BucketRule): Promise<RateVerdict>;
  /** Counts one call in the key's window of `window` seconds; refused past `max`. */
  count(key: string, rule: WindowRule): Promise<RateVerdict>;
}

function verdict(allowed: boolean, tokens: number, rule: BucketRule): RateVerdict {
  return allowed
    ? { allowed: true }
    : { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / rule.perSecond)) };
}

/**
 * Buckets kept in the database, so every replica on one PostgreSQL shares them (on PGlite, the
 * one process does). A check is one upsert; idle buckets are deleted by the rate-limits.cleanup job.
 */
export function createRateLimiter(db: Database, defaults: BucketRule, name?: string): RateLimiter {
  // Limiters share one table: a name keeps one limiter's keys apart from another's.
  const bucket = (key: string) => (name ? `${name}:${key}` : key);
  return {
    async take(key, rule = defaults) {
      const { allowed, tokens } = await takeBucketToken(db, bucket(key), rule);
      return verdict(allowed, tokens, rule);
    },
    async count(key, rule) {
      const { allowed, secondsLeft } = await takeWindowSlot(db, bucket(key), rule);
      return allowed
        ? { allowed: true }
        : { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(secondsLeft)) };
    },
  };
}

import type { Database } from "../db/database";
import {
  type BucketRule,
  leaseBucketTokens,
  leaseBucketTokensOfKeys,
  leaseWindowSlots,
  type WindowRule,
} from "./rate-limit-repository";

export type RateVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** A token bucket (or a fixed window) per key: `burst` calls at once, refilled at `perSecond`. */
export interface RateLimiter {
  /** Takes one token; when none is left, says how many seconds until one is. */
  take(key: string, rule?: BucketRule): Promise<RateVerdict>;
  /** Counts one call in the key's window of `window` seconds; refused past `max`. */
  count(key: string, rule: WindowRule): Promise<RateVerdict>;
}

/**
 * A bucket's lease holds this many seconds of its refill (at least one token). Leases of one token
 * cost a database write per allowed call; one second's refill makes it one write per `perSecond`
 * calls, while what replicas can allow beyond one shared bucket stays one second's refill each.
 * Dividing the limit by a configured replica count would cost no write at all, but gives a client
 * pinned to one replica a fraction of its limit and over-serves whenever the count is wrong.
 * Measured in docs/operations.md ("Rate limits across replicas").
 */
export const LEASE_SECONDS = 1;
/** A window's lease is this share of its calls (at least one): leases end with their window. */
const WINDOW_LEASE_SHARE = 0.1;
/** Local state of a key idle this long is forgotten (its unused tokens refill in the database). */
const IDLE_MS = 10_000;

/** The tokens one database write takes from a bucket for a replica to serve from memory. */
export function leaseSize(rule: BucketRule, leaseSeconds = LEASE_SECONDS): number {
  return Math.max(1, Math.ceil(rule.perSecond * leaseSeconds));
}

/** The calls one database write takes from a fixed window for a replica to serve from memory. */
export function windowLeaseSize(rule: WindowRule): number {
  return Math.max(1, Math.floor(rule.max * WINDOW_LEASE_SHARE));
}

interface Lease {
  /** Whole tokens (or window calls) taken from the shared row and not yet used. */
  calls: number;
  /** Leased calls are void from then on (ms, this process's clock): a window's end. */
  validUntil: number;
  /** Until then the shared row has nothing to lease: the next token is due, or the window ends. */
  emptyUntil: number;
  usedAt: number;
  /** Tokens the shared row had left at the last lease (unknown before the first). */
  rowLeft?: number;
  renewing?: Promise<void>;
}

const refused = (untilMs: number, now: number): RateVerdict => ({
  allowed: false,
  retryAfterSeconds: Math.max(1, Math.ceil((untilMs - now) / 1000)),
});

/**
 * One key's calls served from leases: from memory while the lease lasts, then one `renew` (which
 * updates the lease) for every caller waiting, so concurrent calls never write more than once.
 * With `provisional` calls, a key whose lease is used up (or that this replica has not seen) is
 * served at once while the next lease is taken, up to `provisional` calls, as long as the shared
 * row had that many left at the last lease (a key new to the replica is served so too): the
 * lease's answer settles the account, and calls served beyond what it granted are owed, refused
 * until repaid. So a caller below its limit never waits for the database, one near it waits as
 * before, and a replica serves at most `provisional` calls beyond its leases.
 */
async function takeFromLease(
  leases: Map<string, Lease>,
  id: string,
  renew: (lease: Lease) => Promise<void>,
  provisional = 0,
): Promise<RateVerdict> {
  for (;;) {
    const now = Date.now();
    const lease = leases.get(id) ?? { calls: 0, validUntil: Infinity, emptyUntil: 0, usedAt: now };
    leases.set(id, lease);
    lease.usedAt = now;
    if (lease.calls >= 1 && now < lease.validUntil) {
      lease.calls -= 1;
      return { allowed: true };
    }
    if (now < lease.emptyUntil) return refused(lease.emptyUntil, now);
    if (!lease.renewing) {
      // Only while the shared row last had a lease to spare: near the limit, calls wait.
      const ahead = (lease.rowLeft ?? Infinity) >= provisional ? provisional : 0;
      lease.calls += ahead;
      lease.renewing = renew(lease).finally(() => {
        lease.calls -= ahead;
        lease.renewing = undefined;
      });
      // A caller that waits for the lease sees its failure; those served provisionally do not wait.
      lease.renewing.catch(() => undefined);
      if (lease.calls >= 1) continue;
    }
    await lease.renewing;
  }
}

/** Provisional leases are renewed together: those asked within this time, in one statement. */
const BATCH_MS = 100;
/** At most this many keys in one statement. */
const MAX_BATCH = 500;

type Granted = { taken: number; tokens: number };
interface Waiter {
  resolve: (granted: Granted) => void;
  reject: (error: unknown) => void;
}

/**
 * Bucket leases asked within BATCH_MS, taken in one upsert per rule: when many visitors arrive at
 * once (each with a bucket of its own), the database sees a few statements a second rather than
 * one per visitor. Only for provisional leases, whose callers do not wait for them.
 */
function createLeaseBatches(db: Database) {
  const pending = new Map<string, { rule: BucketRule; size: number; waiters: Map<string, Waiter[]> }>();
  let scheduled = false;
  const settle = async (batch: { rule: BucketRule; size: number; waiters: Map<string, Waiter[]> }) => {
    const keys = [...batch.waiters.keys()];
    for (let at = 0; at < keys.length; at += MAX_BATCH) {
      const chunk = keys.slice(at, at + MAX_BATCH);
      try {
        const granted = await leaseBucketTokensOfKeys(db, chunk, batch.rule, batch.size);
        for (const key of chunk)
          for (const waiter of batch.waiters.get(key) ?? [])
            waiter.resolve(granted.get(key) ?? { taken: 0, tokens: 0 });
      } catch (error) {
        for (const key of chunk) for (const waiter of batch.waiters.get(key) ?? []) waiter.reject(error);
      }
    }
  };
  const flush = () => {
    scheduled = false;
    const batches = [...pending.values()];
    pending.clear();
    for (const batch of batches) void settle(batch);
  };
  return (key: string, rule: BucketRule, size: number) =>
    new Promise<Granted>((resolve, reject) => {
      const signature = `${rule.burst}/${rule.perSecond}/${size}`;
      const batch = pending.get(signature) ?? { rule, size, waiters: new Map<string, Waiter[]>() };
      pending.set(signature, batch);
      batch.waiters.set(key, [...(batch.waiters.get(key) ?? []), { resolve, reject }]);
      if (!scheduled) setTimeout(flush, BATCH_MS);
      scheduled = true;
    });
}

/**
 * Buckets and windows kept in the database, so every replica on one PostgreSQL shares them (on
 * PGlite, the one process does). A replica leases calls from a key's row in one upsert and serves
 * them from memory, so an allowed call normally touches no database; a refusal is remembered until
 * the next token is due or the window ends. Leased calls leave the shared row when taken, so
 * replicas never share one: a window allows at most `max` across all replicas (leases end with it);
 * a bucket refills while replicas hold leases, so across R replicas a key is allowed at most R
 * leases (one second's refill each) beyond one shared bucket. Unused leased calls are not given
 * back: the bucket refills them within a second. Idle rows are deleted by the rate-limits.cleanup job.
 */
export function createRateLimiter(
  db: Database,
  defaults: BucketRule,
  name?: string,
  options: {
    leaseSeconds?: number;
    /**
     * Serve up to one lease of calls while the database grants it (takeFromLease), the leases of
     * all keys asked within BATCH_MS granted in one statement: for limits that shape traffic (the
     * public RPCs), not for credential limits, where a call waits for its lease.
     */
    provisional?: boolean;
  } = {},
): RateLimiter {
  // Limiters share one table: a name keeps one limiter's keys apart from another's.
  const row = (key: string) => (name ? `${name}:${key}` : key);
  const buckets = new Map<string, Lease>();
  const batched = createLeaseBatches(db);
  const windows = new Map<string, Lease>();
  let prunedAt = Date.now();

  const forgetIdle = () => {
    const now = Date.now();
    if (now - prunedAt < IDLE_MS) return;
    prunedAt = now;
    for (const leases of [buckets, windows])
      for (const [id, lease] of leases)
        if (lease.usedAt < now - IDLE_MS && lease.emptyUntil < now && !lease.renewing) leases.delete(id);
  };

  return {
    take(key, rule = defaults) {
      forgetIdle();
      const id = row(key);
      const size = leaseSize(rule, options.leaseSeconds);
      return takeFromLease(
        buckets,
        id,
        async (lease) => {
          const { taken, tokens } = options.provisional
            ? await batched(id, rule, size)
            : await leaseBucketTokens(db, id, rule, size);
          lease.calls += taken;
          lease.rowLeft = tokens;
          if (taken === 0) lease.emptyUntil = Date.now() + ((1 - tokens) / rule.perSecond) * 1000;
        },
        options.provisional ? Math.min(size, rule.burst) : 0,
      );
    },
    count(key, rule) {
      forgetIdle();
      const id = row(key);
      return takeFromLease(windows, id, async (lease) => {
        // Taken before the statement, so the lease ends no later than the database's window.
        const asked = Date.now();
        const { taken, secondsLeft } = await leaseWindowSlots(db, id, rule, windowLeaseSize(rule));
        lease.calls = taken;
        lease.validUntil = asked + secondsLeft * 1000;
        if (taken === 0) lease.emptyUntil = lease.validUntil;
      });
    },
  };
}

import { sql } from "drizzle-orm";
import type { Database } from "../db/database";

export interface BucketRule {
  /** Calls allowed at once. */
  burst: number;
  /** Tokens refilled per second. */
  perSecond: number;
}

/**
 * Takes one token from the key's bucket in one statement (an upsert that refills by the time
 * elapsed on the database's clock, then takes a token if one is whole), so concurrent calls on
 * any number of replicas never share a token. Returns whether the call is allowed and the tokens left.
 */
export async function takeBucketToken(
  db: Database,
  key: string,
  rule: BucketRule,
): Promise<{ allowed: boolean; tokens: number }> {
  const refill = sql`least(${rule.burst}::double precision, b.tokens + extract(epoch from (now() - b.updated_at)) * ${rule.perSecond}::double precision)`;
  const result = await db.execute(sql`
    insert into rate_limit_buckets as b (key, tokens, updated_at, allowed)
    values (${key}, ${rule.burst - 1}::double precision, now(), true)
    on conflict (key) do update set
      tokens = case when ${refill} >= 1 then ${refill} - 1 else ${refill} end,
      allowed = ${refill} >= 1,
      updated_at = now()
    returning allowed, tokens`);
  const row = (result as unknown as { rows: { allowed: boolean; tokens: number | string }[] }).rows[0];
  return { allowed: Boolean(row?.allowed), tokens: Number(row?.tokens ?? 0) };
}

export interface WindowRule {
  /** Seconds from a window's first call. */
  window: number;
  /** Calls allowed within a window. */
  max: number;
}

/**
 * Counts one call in the key's fixed window in one statement (the row's `tokens` is the count and
 * `updated_at` the window's start). Returns whether the call is allowed and the seconds left.
 */
export async function takeWindowSlot(
  db: Database,
  key: string,
  rule: WindowRule,
): Promise<{ allowed: boolean; secondsLeft: number }> {
  const over = sql`b.updated_at <= now() - make_interval(secs => ${rule.window})`;
  const result = await db.execute(sql`
    insert into rate_limit_buckets as b (key, tokens, updated_at, allowed)
    values (${key}, 1, now(), true)
    on conflict (key) do update set
      tokens = case when ${over} then 1 when b.tokens < ${rule.max} then b.tokens + 1 else b.tokens end,
      allowed = ${over} or b.tokens < ${rule.max},
      updated_at = case when ${over} then now() else b.updated_at end
    returning allowed, extract(epoch from (updated_at + make_interval(secs => ${rule.window}) - now())) as seconds_left`);
  const row = (result as unknown as { rows: { allowed: boolean; seconds_left: number | string }[] }).rows[0];
  return { allowed: Boolean(row?.allowed), secondsLeft: Number(row?.seconds_left ?? rule.window) };
}

/** Forgets buckets untouched for `olderThanSeconds` (full again by then). */
export async function deleteIdleBuckets(db: Database, olderThanSeconds: number): Promise<void> {
  await db.execute(
    sql`delete from rate_limit_buckets where updated_at < now() - make_interval(secs => ${olderThanSeconds})`,
  );
}

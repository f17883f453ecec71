import { sql } from "drizzle-orm";
import type { Database } from "../db/database";

export interface BucketRule {
  /** Calls allowed at once. */
  burst: number;
  /** Tokens refilled per second. */
  perSecond: number;
}

/**
 * Leases up to `lease` whole tokens from the key's bucket in one statement (an upsert that refills
 * by the time elapsed on the database's clock, then takes what is whole, at most `lease`), so
 * concurrent leases on any number of replicas never share a token. Returns the tokens taken (0 when
 * none is whole) and the tokens left in the bucket.
 */
export async function leaseBucketTokens(
  db: Database,
  key: string,
  rule: BucketRule,
  lease: number,
): Promise<{ taken: number; tokens: number }> {
  return (await leaseBucketTokensOfKeys(db, [key], rule, lease)).get(key) ?? { taken: 0, tokens: 0 };
}

/** leaseBucketTokens for several keys (distinct) of one rule, in one statement. */
export async function leaseBucketTokensOfKeys(
  db: Database,
  keys: string[],
  rule: BucketRule,
  lease: number,
): Promise<Map<string, { taken: number; tokens: number }>> {
  const refill = sql`least(${rule.burst}::double precision, b.tokens + extract(epoch from (now() - b.updated_at)) * ${rule.perSecond}::double precision)`;
  const taken = sql`case when ${refill} >= 1 then least(floor(${refill}), ${lease}::double precision) else 0 end`;
  const first = sql`least(${lease}::double precision, greatest(1, floor(${rule.burst}::double precision)))`;
  const rows = sql.join(
    keys.map((key) => sql`(${key}, ${rule.burst}::double precision - ${first}, now(), true, ${first})`),
    sql`, `,
  );
  const result = await db.execute(sql`
    insert into rate_limit_buckets as b (key, tokens, updated_at, allowed, leased)
    values ${rows}
    on conflict (key) do update set
      tokens = ${refill} - ${taken},
      allowed = ${refill} >= 1,
      leased = ${taken},
      updated_at = now()
    returning key, leased, tokens`);
  const found = (
    result as unknown as { rows: { key: string; leased: number | string; tokens: number | string }[] }
  ).rows;
  return new Map(found.map((row) => [row.key, { taken: Number(row.leased), tokens: Number(row.tokens) }]));
}

export interface WindowRule {
  /** Seconds from a window's first call. */
  window: number;
  /** Calls allowed within a window. */
  max: number;
}

/**
 * Leases up to `lease` calls of the key's fixed window in one statement (the row's `tokens` is the
 * count and `updated_at` the window's start), never past `max`. Returns the calls taken (0 when the
 * window is full) and the seconds left in the window, after which leased calls are void.
 */
export async function leaseWindowSlots(
  db: Database,
  key: string,
  rule: WindowRule,
  lease: number,
): Promise<{ taken: number; secondsLeft: number }> {
  const over = sql`b.updated_at <= now() - make_interval(secs => ${rule.window})`;
  const first = sql`least(${lease}::double precision, ${rule.max}::double precision)`;
  const count = sql`greatest(b.tokens, least(${rule.max}::double precision, b.tokens + ${lease}))`;
  const result = await db.execute(sql`
    insert into rate_limit_buckets as b (key, tokens, updated_at, allowed, leased)
    values (${key}, ${first}, now(), true, ${first})
    on conflict (key) do update set
      tokens = case when ${over} then ${first} else ${count} end,
      leased = case when ${over} then ${first} else ${count} - b.tokens end,
      allowed = ${over} or b.tokens < ${rule.max},
      updated_at = case when ${over} then now() else b.updated_at end
    returning leased, extract(epoch from (updated_at + make_interval(secs => ${rule.window}) - now())) as seconds_left`);
  const row = (result as unknown as { rows: { leased: number | string; seconds_left: number | string }[] })
    .rows[0];
  return { taken: Number(row?.leased ?? 0), secondsLeft: Number(row?.seconds_left ?? rule.window) };
}

/** Forgets buckets untouched for `olderThanSeconds` (full again by then). */
export async function deleteIdleBuckets(db: Database, olderThanSeconds: number): Promise<void> {
  await db.execute(
    sql`delete from rate_limit_buckets where updated_at < now() - make_interval(secs => ${olderThanSeconds})`,
  );
}

import { sql } from "drizzle-orm";
import type { Database } from "../../db/database";
import { addToDayCounts, DAY_COUNT_COLUMNS, dayCountChanges } from "./event-day-counts";
import { rowsOf } from "./event-repository";

/** Rows deleted per statement: each statement is short, so it holds its row locks only briefly. */
export const PURGE_BATCH = 5000;

async function deleteInBatches(db: Database, statement: () => ReturnType<typeof sql>): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = rowsOf<{ n: number }>(await db.execute(statement()))[0]?.n ?? 0;
    total += Number(deleted);
    if (Number(deleted) < PURGE_BATCH) return total;
  }
}

/**
 * Deletes a tenant's events that occurred before `cutoff`, batch by batch (oldest first, along the
 * tenant's time index) and their day counts with them, then the resource events and identities
 * whose newest event was among them.
 * A resource event with a newer event keeps pointing at that event, so lists and summaries stay
 * right. Returns how many events were deleted.
 */
export async function purgeEventsBefore(db: Database, tenantId: string, cutoff: Date): Promise<number> {
  const before = cutoff.toISOString();
  const events = await deleteInBatches(
    db,
    () => sql`
      with doomed as (
        select id from policy_events where tenant_id = ${tenantId} and occurred_at < ${before}
        order by occurred_at limit ${PURGE_BATCH})
      , gone as (delete from policy_events pe using doomed where pe.id = doomed.id returning ${DAY_COUNT_COLUMNS})
      , counted as (${addToDayCounts(dayCountChanges("gone", -1))})
      select count(*)::int as n from gone`,
  );
  await db.execute(sql`delete from event_day_counts where tenant_id = ${tenantId} and events = 0`);
  await deleteInBatches(
    db,
    () => sql`
      with doomed as (
        select id from resource_events where tenant_id = ${tenantId} and last_occurred_at < ${before}
        limit ${PURGE_BATCH})
      , gone as (delete from resource_events re using doomed where re.id = doomed.id returning 1)
      select count(*)::int as n from gone`,
  );
  await db.execute(
    sql`delete from event_principals where tenant_id = ${tenantId} and last_occurred_at < ${before}`,
  );
  return events;
}

import { type SQL, sql } from "drizzle-orm";

/**
 * The `policy_events` columns that decide which `event_day_counts` row an event is counted in; a
 * statement that inserts, deletes or updates events returns these to change the counts with it.
 */
const DAY_COUNT_SOURCE = [
  "tenant_id",
  "occurred_at",
  "bundle_id",
  "deployment_name",
  "cloud_provider",
  "resource_native_type",
  "type",
  "is_dismissed",
  "archived",
] as const;

type DayCountSource = (typeof DAY_COUNT_SOURCE)[number];

/** `returning` list of a statement on `policy_events` whose rows change the day counts. */
export const DAY_COUNT_COLUMNS = sql.raw(DAY_COUNT_SOURCE.join(", "));

/**
 * The rows of `from` (a CTE returning DAY_COUNT_COLUMNS) as changes of `n` events each; `before`
 * replaces columns by the values they had before an update, to take the events off their old row.
 */
export function dayCountChanges(
  from: string,
  n: 1 | -1,
  before: Partial<Record<DayCountSource, SQL>> = {},
): SQL {
  const columns = DAY_COUNT_SOURCE.map((c) => {
    const old = before[c];
    return old ? sql`${old} as ${sql.raw(c)}` : sql.raw(c);
  });
  return sql`select ${sql.join(columns, sql`, `)}, ${sql.raw(String(n))} as n from ${sql.raw(from)}`;
}

/**
 * Adds changes (rows of DAY_COUNT_COLUMNS and `n`) to the day counts, one upsert for all. Rows are
 * written in key order, so two writers of one tenant lock them in the same order. Used as a CTE
 * of the statement that changed the events, so both happen or neither.
 */
export function addToDayCounts(changes: SQL): SQL {
  return sql`
    insert into event_day_counts (tenant_id, day, bundle_id, deployment_name, cloud_provider, resource_native_type,
      type, is_dismissed, archived, events)
    select tenant_id, (occurred_at at time zone 'UTC')::date, coalesce(bundle_id, ''), coalesce(deployment_name, ''),
      cloud_provider, coalesce(resource_native_type, ''), type, is_dismissed, archived, sum(n)
    from (${changes}) change
    group by 1, 2, 3, 4, 5, 6, 7, 8, 9
    having sum(n) <> 0
    order by 1, 2, 3, 4, 5, 6, 7, 8, 9
    on conflict (tenant_id, day, bundle_id, deployment_name, cloud_provider, resource_native_type, type, is_dismissed,
      archived)
    do update set events = event_day_counts.events + excluded.events`;
}

/** `update policy_events ...` whose changed rows move between day counts: `before` as in dayCountChanges. */
export function updateCountingDays(update: SQL, before: Partial<Record<DayCountSource, SQL>>): SQL {
  return sql`
    with changed as (${update} returning ${DAY_COUNT_COLUMNS})
    , counted as (${addToDayCounts(
      sql`${dayCountChanges("changed", 1)} union all ${dayCountChanges("changed", -1, before)}`,
    )})
    select count(*)::int as n from changed`;
}

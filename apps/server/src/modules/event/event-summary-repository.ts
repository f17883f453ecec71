import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../../db/database";
import type { EventQuery } from "./event-query";
import { escapeLike, filterConditions, rowsOf, where } from "./event-repository";

export interface SummaryCounts {
  prevention: number;
  alerts: number;
  waivers: number;
  drifts: number;
  archived: number;
  resolved: number;
  dismissed: number;
  historical: number;
}

/**
 * The summary's counts over rows under `alias`: each row one event, or `weight` events when given
 * (a day count's events, 1 for an event).
 */
function countColumns(alias: string, weight?: string): SQL {
  const tally = (condition: string) =>
    weight
      ? `coalesce(sum(${alias}.${weight}) filter (where ${condition}), 0)::int`
      : `count(*) filter (where ${condition})::int`;
  return sql.raw(`
  ${tally(`${alias}.type = 'PREVENTION'`)} as prevention,
  ${tally(`${alias}.type = 'ALERT'`)} as alerts,
  ${tally(`${alias}.type = 'WAIVED'`)} as waivers,
  ${tally(`${alias}.type = 'DRIFT'`)} as drifts,
  ${tally(`${alias}.archived`)} as archived,
  ${tally(`${alias}.type = 'RESOLVED'`)} as resolved,
  ${tally(`${alias}.is_dismissed`)} as dismissed,
  ${tally(`${alias}.type = 'HISTORICAL_DRIFT'`)} as historical`);
}

export function summaryOf(
  row: Partial<Record<keyof SummaryCounts, number | string>> | undefined,
): SummaryCounts {
  const n = (v: number | string | undefined) => Number(v ?? 0);
  return {
    prevention: n(row?.prevention),
    alerts: n(row?.alerts),
    waivers: n(row?.waivers),
    drifts: n(row?.drifts),
    archived: n(row?.archived),
    resolved: n(row?.resolved),
    dismissed: n(row?.dismissed),
    historical: n(row?.historical),
  };
}

function eventWhere(tenantId: string, q: EventQuery): SQL {
  return where([sql`pe.tenant_id = ${tenantId}`, ...filterConditions(q, "pe", sql.raw("pe.is_dismissed"))]);
}

type Bucket = "hour" | "day" | "week";

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The whole UTC days (epoch ms, end exclusive, undefined when open) of a filter's time range that
 * the day counts answer, or undefined when they cannot answer it: they keep no resource name,
 * scope, user or hour, and a range within one day has no whole day.
 */
function wholeDays(q: EventQuery, bucket?: Bucket): { fromMs?: number; toMs?: number } | undefined {
  if (q.resourceName || q.scopes.length > 0 || q.scopePrefixes.length > 0 || q.users.length > 0)
    return undefined;
  if (bucket === "hour") return undefined;
  const fromMs = q.start && Math.ceil(q.start.getTime() / DAY_MS) * DAY_MS;
  const toMs = q.end && Math.floor(q.end.getTime() / DAY_MS) * DAY_MS;
  if (fromMs !== undefined && toMs !== undefined && fromMs >= toMs) return undefined;
  return { fromMs, toMs };
}

/** The events a filter matches, one row each (`n` 1, or -1 to take them off a day's count). */
function eventRows(tenantId: string, q: EventQuery, bucket: Bucket | undefined, n: 1 | -1 = 1): SQL {
  const start = bucket
    ? sql`date_trunc(${bucket}, pe.occurred_at at time zone 'UTC') at time zone 'UTC'`
    : sql`null::timestamptz`;
  return sql`
    select pe.type, pe.is_dismissed, pe.archived, pe.bundle_id, ${start} as bucket, ${sql.raw(String(n))} as n
    from policy_events pe where ${eventWhere(tenantId, q)}`;
}

/**
 * What a filter matches as rows of (type, is_dismissed, archived, bundle_id, bucket, n events):
 * the whole days of its time range from the day counts when they answer the filter, and each
 * partial day at either end from policy_events, whichever reads fewer hours: its events inside
 * the range, or its whole day's count less its events outside the range (for a range ending now,
 * none). Otherwise every matching event.
 */
function countedRows(tenantId: string, q: EventQuery, bucket?: Bucket): SQL {
  const range = wholeDays(q, bucket);
  if (!range) return eventRows(tenantId, q, bucket);
  let { fromMs, toMs } = range;
  const edges: SQL[] = [];
  if (q.start && fromMs !== undefined && fromMs > q.start.getTime()) {
    if (fromMs - q.start.getTime() <= DAY_MS / 2)
      edges.push(eventRows(tenantId, { ...q, end: new Date(fromMs) }, bucket));
    else {
      fromMs -= DAY_MS;
      edges.push(eventRows(tenantId, { ...q, start: new Date(fromMs), end: q.start }, bucket, -1));
    }
  }
  if (q.end && toMs !== undefined && toMs < q.end.getTime()) {
    if (q.end.getTime() - toMs <= DAY_MS / 2)
      edges.push(eventRows(tenantId, { ...q, start: new Date(toMs) }, bucket));
    else {
      toMs += DAY_MS;
      edges.push(eventRows(tenantId, { ...q, start: q.end, end: new Date(toMs) }, bucket, -1));
    }
  }
  const start = bucket
    ? sql`date_trunc(${bucket}, c.day::timestamp) at time zone 'UTC'`
    : sql`null::timestamptz`;
  // A count back at zero (events dismissed and restored) is no event.
  const days = [
    sql`c.tenant_id = ${tenantId}`,
    sql`c.events <> 0`,
    ...filterConditions({ ...q, start: undefined, end: undefined }, "c", sql.raw("c.is_dismissed")),
  ];
  if (fromMs !== undefined) days.push(sql`c.day >= ${dayOf(fromMs)}::date`);
  if (toMs !== undefined) days.push(sql`c.day < ${dayOf(toMs)}::date`);
  const counted = sql`
    select c.type, c.is_dismissed, c.archived, nullif(c.bundle_id, '') as bundle_id, ${start} as bucket, c.events as n
    from event_day_counts c where ${where(days)}`;
  return sql.join([counted, ...edges], sql` union all `);
}

/** Counts by kind: from the day counts when they answer the filter, else from every matching event. */
export async function summarize(db: Database, tenantId: string, q: EventQuery): Promise<SummaryCounts> {
  if (!wholeDays(q)) return summarizeEvents(db, tenantId, q);
  const [row] = rowsOf<Record<keyof SummaryCounts, number>>(
    await db.execute(sql`select ${countColumns("x", "n")} from (${countedRows(tenantId, q)}) x`),
  );
  return summaryOf(row);
}

/** The same counts as `summarize`, from every matching event. */
export async function summarizeEvents(db: Database, tenantId: string, q: EventQuery): Promise<SummaryCounts> {
  const [row] = rowsOf<Record<keyof SummaryCounts, number>>(
    await db.execute(
      sql`select ${countColumns("pe")} from policy_events pe where ${eventWhere(tenantId, q)}`,
    ),
  );
  return summaryOf(row);
}

export async function mostActive(db: Database, tenantId: string, q: EventQuery, type: string, limit = 5) {
  return rowsOf<{ bundle_id: string; name: string; key: string; policy_slug: string; count: number }>(
    await db.execute(sql`
      select x.bundle_id, b.name, b.key, b.policy_slug, sum(x.n)::int as count
      from (${countedRows(tenantId, q)}) x join bundles b on b.id = x.bundle_id
      where x.type = ${type}
      group by x.bundle_id, b.name, b.key, b.policy_slug having sum(x.n) > 0
      order by count desc, b.name asc limit ${limit}`),
  );
}

export async function summarizeBuckets(db: Database, tenantId: string, q: EventQuery, bucket: Bucket) {
  return rowsOf<Record<keyof SummaryCounts, number> & { bucket: Date | string }>(
    await db.execute(sql`
      select x.bucket, ${countColumns("x", "n")}
      from (${countedRows(tenantId, q, bucket)}) x
      -- A bucket whose events all lie outside the range adds up to none.
      group by 1 having sum(x.n) <> 0 order by 1 asc limit 5000`),
  );
}

export async function summarizeResourceTypes(db: Database, tenantId: string, q: EventQuery) {
  return rowsOf<Record<keyof SummaryCounts, number> & { resource_type: string | null }>(
    await db.execute(sql`
      select coalesce(re.resource_native_type, '') as resource_type,
        count(*) filter (where re.type = 'PREVENTION')::int as prevention,
        count(*) filter (where re.type = 'ALERT')::int as alerts,
        count(*) filter (where re.type = 'WAIVED')::int as waivers,
        count(*) filter (where re.type = 'DRIFT')::int as drifts,
        count(*) filter (where pe.archived)::int as archived,
        count(*) filter (where re.type = 'RESOLVED')::int as resolved,
        count(*) filter (where re.is_dismissed)::int as dismissed,
        count(*) filter (where re.type = 'HISTORICAL_DRIFT')::int as historical
      from resource_events re join policy_events pe on pe.id = re.last_event_id
      where ${where([sql`re.tenant_id = ${tenantId}`, ...filterConditions(q, "pe", sql.raw("re.is_dismissed"))])}
      group by 1 order by 1`),
  );
}

export async function summarizeByScope(db: Database, tenantId: string, q: EventQuery) {
  return rowsOf<Record<keyof SummaryCounts, number> & { scope: string | null }>(
    await db.execute(sql`
      select lower(pe.resource_scope) as scope, ${countColumns("pe")}
      from policy_events pe where ${eventWhere(tenantId, q)} group by 1`),
  );
}

export async function resourceTypes(db: Database, tenantId: string, provider?: string): Promise<string[]> {
  const rows = rowsOf<{ t: string }>(
    await db.execute(sql`
      select distinct resource_native_type as t from policy_events
      where tenant_id = ${tenantId} and resource_native_type is not null and resource_native_type <> ''
        ${provider ? sql`and cloud_provider = ${provider}` : sql``}
      order by 1 limit 1000`),
  );
  return rows.map((r) => r.t);
}

/** The identities behind a tenant's events (at most 200), by identifier; `search` is a substring. */
export async function userNames(db: Database, tenantId: string, search: string | undefined) {
  const pattern = search ? `%${escapeLike(search)}%` : undefined;
  return rowsOf<{
    user_identifier: string | null;
    user_name: string | null;
    source_app_identifier: string | null;
    source_app_name: string | null;
    user_type: string | null;
  }>(
    await db.execute(sql`
      select nullif(user_identifier, '') as user_identifier, user_name, source_app_identifier, source_app_name,
        user_type
      from event_principals
      where tenant_id = ${tenantId}
        ${pattern ? sql`and (user_identifier || E'\\n' || coalesce(user_name, '')) ilike ${pattern}` : sql``}
      order by user_identifier limit 200`),
  );
}

export async function complianceTrend(
  db: Database,
  tenantId: string,
  bundleId: string,
  start: Date,
  end: Date,
) {
  const startDay = start.toISOString().slice(0, 10);
  const endDay = end.toISOString().slice(0, 10);
  const [overall] = rowsOf<{ compliant: number; non_compliant: number }>(
    await db.execute(sql`
      select count(*) filter (where compliant)::int as compliant, count(*) filter (where not compliant)::int as non_compliant
      from (select distinct on (deployment_id, resource_external_id) compliant from compliance_observations
            where tenant_id = ${tenantId} and bundle_id = ${bundleId}
            order by deployment_id, resource_external_id, observed_at desc) latest`),
  );
  const [within] = rowsOf<{ compliant: number; non_compliant: number }>(
    await db.execute(sql`
      select count(*) filter (where compliant)::int as compliant, count(*) filter (where not compliant)::int as non_compliant
      from (select distinct on (deployment_id, resource_external_id) compliant from compliance_observations
            where tenant_id = ${tenantId} and bundle_id = ${bundleId} and observed_at >= ${start.toISOString()}
              and observed_at < ${end.toISOString()}
            order by deployment_id, resource_external_id, observed_at desc) latest`),
  );
  // Every observation up to the end: a resource keeps its last known state on later days.
  const observations = rowsOf<{ resource: string; day: string; compliant: boolean }>(
    await db.execute(sql`
      select deployment_id || ' ' || resource_external_id as resource, day, compliant
      from compliance_observations
      where tenant_id = ${tenantId} and bundle_id = ${bundleId} and day <= ${endDay}
      order by day asc, observed_at asc limit 200000`),
  );
  return { overall, within, observations, startDay };
}

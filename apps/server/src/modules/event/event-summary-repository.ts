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

const COUNT_COLUMNS = sql.raw(`
  count(*) filter (where pe.type = 'PREVENTION')::int as prevention,
  count(*) filter (where pe.type = 'ALERT')::int as alerts,
  count(*) filter (where pe.type = 'WAIVED')::int as waivers,
  count(*) filter (where pe.type = 'DRIFT')::int as drifts,
  count(*) filter (where pe.archived)::int as archived,
  count(*) filter (where pe.type = 'RESOLVED')::int as resolved,
  count(*) filter (where pe.is_dismissed)::int as dismissed,
  count(*) filter (where pe.type = 'HISTORICAL_DRIFT')::int as historical`);

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

export async function summarize(db: Database, tenantId: string, q: EventQuery): Promise<SummaryCounts> {
  const [row] = rowsOf<Record<keyof SummaryCounts, number>>(
    await db.execute(sql`select ${COUNT_COLUMNS} from policy_events pe where ${eventWhere(tenantId, q)}`),
  );
  return summaryOf(row);
}

export async function mostActive(db: Database, tenantId: string, q: EventQuery, type: string, limit = 5) {
  return rowsOf<{ bundle_id: string; name: string; key: string; policy_slug: string; count: number }>(
    await db.execute(sql`
      select pe.bundle_id, b.name, b.key, b.policy_slug, count(*)::int as count
      from policy_events pe join bundles b on b.id = pe.bundle_id
      where ${eventWhere(tenantId, q)} and pe.type = ${type}
      group by pe.bundle_id, b.name, b.key, b.policy_slug
      order by count desc, b.name asc limit ${limit}`),
  );
}

export async function summarizeBuckets(
  db: Database,
  tenantId: string,
  q: EventQuery,
  bucket: "hour" | "day" | "week",
) {
  return rowsOf<Record<keyof SummaryCounts, number> & { bucket: Date | string }>(
    await db.execute(sql`
      select date_trunc(${bucket}, pe.occurred_at at time zone 'UTC') at time zone 'UTC' as bucket, ${COUNT_COLUMNS}
      from policy_events pe where ${eventWhere(tenantId, q)}
      group by 1 order by 1 asc limit 5000`),
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
      select lower(pe.resource_scope) as scope, ${COUNT_COLUMNS}
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

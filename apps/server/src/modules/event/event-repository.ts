import type { EventOrderBy } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../../db/database";
import { type EventQuery, filterConditions, type Keyset, keysetCondition, sortColumn } from "./event-query";

/** A `policy_events` row as read with raw SQL (snake_case columns). */
export interface EventRow {
  id: string;
  type: string;
  cloud_provider: string;
  deployment_id: string | null;
  bundle_id: string | null;
  deployment_name: string | null;
  namespace: string | null;
  bundle_key: string | null;
  resource_external_id: string | null;
  resource_native_type: string | null;
  resource_scope: string | null;
  resource_name: string | null;
  resource_created_at: Date | string | null;
  resource_link: string | null;
  user_identifier: string | null;
  user_name: string | null;
  source_app_identifier: string | null;
  source_app_name: string | null;
  user_type: string | null;
  archived: boolean;
  is_dismissed: boolean;
  occurred_at: Date | string;
  audits: unknown;
  created_at: Date | string;
  sort_value: string;
}

export interface ResourceEventRow extends EventRow {
  re_id: string;
  re_last_occurred_at: Date | string;
  re_is_dismissed: boolean;
}

const EVENT_COLUMNS =
  sql.raw(`pe.id, pe.type, pe.cloud_provider, pe.deployment_id, pe.bundle_id, pe.deployment_name,
  pe.namespace, b.key as bundle_key, pe.resource_external_id, pe.resource_native_type, pe.resource_scope,
  pe.resource_name, pe.resource_created_at, pe.resource_link, pe.user_identifier, pe.user_name,
  pe.source_app_identifier, pe.source_app_name, pe.user_type, pe.archived, pe.is_dismissed, pe.occurred_at,
  pe.audits, pe.created_at`);

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

export interface PageRequest {
  orderBy: EventOrderBy;
  descending: boolean;
  limit: number;
  /** Keyset mode: items after `after` (or before `before`); page mode: `offset`. */
  after?: Keyset;
  before?: Keyset;
  offset?: number;
}

/** Counting stops here in cursor mode, so a page on millions of events stays fast. */
export const COUNT_CAP = 1000;

function where(parts: SQL[]): SQL {
  return parts.length === 0 ? sql`true` : sql.join(parts, sql` and `);
}

async function pageOf<T extends { sort_value: string; id: string }>(
  db: Database,
  build: (conditions: SQL[], order: SQL, limit: number, offset: number) => SQL,
  base: SQL[],
  sort: { expr: SQL; kind: "time" | "text" },
  idColumn: SQL,
  page: PageRequest,
): Promise<{ rows: T[]; hasMore: boolean }> {
  // Walking backwards reads in the opposite order and flips the result.
  const backwards = Boolean(page.before && !page.after);
  const descending = backwards ? !page.descending : page.descending;
  const conditions = [...base];
  const keyset = page.after ?? page.before;
  if (keyset) conditions.push(keysetCondition(sort, idColumn, keyset, descending));
  const direction = sql.raw(descending ? "desc" : "asc");
  const order = sql`${sort.expr} ${direction}, ${idColumn} ${direction}`;
  const rows = rowsOf<T>(await db.execute(build(conditions, order, page.limit + 1, page.offset ?? 0)));
  const hasMore = rows.length > page.limit;
  const items = rows.slice(0, page.limit);
  return { rows: backwards ? items.reverse() : items, hasMore };
}

export async function listEvents(db: Database, tenantId: string, q: EventQuery, page: PageRequest) {
  const sort = sortColumn(page.orderBy, "pe", "pe.occurred_at");
  const base = [sql`pe.tenant_id = ${tenantId}`, ...filterConditions(q, "pe", sql.raw("pe.is_dismissed"))];
  return pageOf<EventRow>(
    db,
    (conditions, order, limit, offset) => sql`
      select ${EVENT_COLUMNS}, (${sort.expr})::text as sort_value
      from policy_events pe left join bundles b on b.id = pe.bundle_id
      where ${where(conditions)} order by ${order} limit ${limit} offset ${offset}`,
    base,
    sort,
    sql.raw("pe.id"),
    page,
  );
}

export async function countEvents(
  db: Database,
  tenantId: string,
  q: EventQuery,
  cap?: number,
): Promise<number> {
  const conditions = where([
    sql`pe.tenant_id = ${tenantId}`,
    ...filterConditions(q, "pe", sql.raw("pe.is_dismissed")),
  ]);
  const inner = cap
    ? sql`select count(*)::int as n from (select 1 from policy_events pe where ${conditions} limit ${cap}) capped`
    : sql`select count(*)::int as n from policy_events pe where ${conditions}`;
  const [row] = rowsOf<{ n: number }>(await db.execute(inner));
  return Number(row?.n ?? 0);
}

/** Resource events: the filter applies to each one's newest event. */
function resourceConditions(tenantId: string, q: EventQuery): SQL[] {
  const out = [sql`re.tenant_id = ${tenantId}`, ...filterConditions(q, "pe", sql.raw("re.is_dismissed"))];
  // The list hides dismissed resource events unless asked for them.
  if (q.isDismissed === undefined && !q.includeDismissedType) out.push(sql`re.is_dismissed = false`);
  return out;
}

export async function listResourceEvents(db: Database, tenantId: string, q: EventQuery, page: PageRequest) {
  const sort = sortColumn(page.orderBy, "pe", "re.last_occurred_at");
  return pageOf<ResourceEventRow>(
    db,
    (conditions, order, limit, offset) => sql`
      select ${EVENT_COLUMNS}, re.id as re_id, re.last_occurred_at as re_last_occurred_at,
        re.is_dismissed as re_is_dismissed, (${sort.expr})::text as sort_value
      from resource_events re
      join policy_events pe on pe.id = re.last_event_id
      left join bundles b on b.id = pe.bundle_id
      where ${where(conditions)} order by ${order} limit ${limit} offset ${offset}`,
    resourceConditions(tenantId, q),
    sort,
    sql.raw("re.id"),
    page,
  );
}

export async function countResourceEvents(db: Database, tenantId: string, q: EventQuery, cap?: number) {
  const conditions = where(resourceConditions(tenantId, q));
  const body = sql`select 1 from resource_events re join policy_events pe on pe.id = re.last_event_id where ${conditions}`;
  const [row] = rowsOf<{ n: number }>(
    await db.execute(
      cap
        ? sql`select count(*)::int as n from (${body} limit ${cap}) capped`
        : sql`select count(*)::int as n from (${body}) counted`,
    ),
  );
  return Number(row?.n ?? 0);
}

export async function findEvent(db: Database, tenantId: string, id: string): Promise<EventRow | undefined> {
  const [row] = rowsOf<EventRow>(
    await db.execute(sql`
      select ${EVENT_COLUMNS}, pe.occurred_at::text as sort_value
      from policy_events pe left join bundles b on b.id = pe.bundle_id
      where pe.tenant_id = ${tenantId} and pe.id = ${id} limit 1`),
  );
  return row;
}

export async function findResourceEventOf(
  db: Database,
  tenantId: string,
  eventId: string,
): Promise<ResourceEventRow | undefined> {
  const [row] = rowsOf<ResourceEventRow>(
    await db.execute(sql`
      select ${EVENT_COLUMNS}, re.id as re_id, re.last_occurred_at as re_last_occurred_at,
        re.is_dismissed as re_is_dismissed, re.last_occurred_at::text as sort_value
      from policy_events target
      join resource_events re on re.tenant_id = target.tenant_id and re.deployment_id = target.deployment_id
        and re.resource_external_id = target.resource_external_id
      join policy_events pe on pe.id = re.last_event_id
      left join bundles b on b.id = pe.bundle_id
      where target.tenant_id = ${tenantId} and target.id = ${eventId} limit 1`),
  );
  return row;
}

export async function setEventDismissed(db: Database, tenantId: string, id: string, dismissed: boolean) {
  await db.execute(
    sql`update policy_events set is_dismissed = ${dismissed} where tenant_id = ${tenantId} and id = ${id}`,
  );
}

/** Dismisses (or restores) a resource event and every event of that resource and deployment. */
export async function setResourceDismissed(
  db: Database,
  tenantId: string,
  resourceEventId: string,
  dismissed: boolean,
) {
  await db.transaction(async (tx) => {
    const [re] = rowsOf<{ deployment_id: string; resource_external_id: string }>(
      await tx.execute(sql`
        update resource_events set is_dismissed = ${dismissed}, updated_at = now()
        where tenant_id = ${tenantId} and id = ${resourceEventId}
        returning deployment_id, resource_external_id`),
    );
    if (!re) return;
    await tx.execute(sql`
      update policy_events set is_dismissed = ${dismissed}
      where tenant_id = ${tenantId} and deployment_id = ${re.deployment_id}
        and resource_external_id = ${re.resource_external_id}`);
  });
}

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

export async function userNames(db: Database, tenantId: string, search: string | undefined) {
  const pattern = search ? `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  return rowsOf<{
    user_identifier: string | null;
    user_name: string | null;
    source_app_identifier: string | null;
    source_app_name: string | null;
    user_type: string | null;
  }>(
    await db.execute(sql`
      select distinct on (coalesce(user_identifier, '')) user_identifier, user_name, source_app_identifier,
        source_app_name, user_type
      from policy_events
      where tenant_id = ${tenantId}
        ${pattern ? sql`and (user_identifier ilike ${pattern} or user_name ilike ${pattern})` : sql``}
      order by coalesce(user_identifier, ''), occurred_at desc limit 200`),
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

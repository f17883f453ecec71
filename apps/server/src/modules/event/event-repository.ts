import { EventOrderBy } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { and, eq, gte, inArray, type SQL, sql } from "drizzle-orm";
import type { Database } from "../../db/database";
import { updateCountingDays } from "./event-day-counts";
import type { EventQuery, Keyset } from "./event-query";
import { policyEvents } from "./event-schema";

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

/** An event of a deleted bundle reads as archived. Every query selecting these joins `bundles b`. */
export const EVENT_COLUMNS =
  sql.raw(`pe.id, pe.type, pe.cloud_provider, pe.deployment_id, pe.bundle_id, pe.deployment_name,
  pe.namespace, b.key as bundle_key, pe.resource_external_id, pe.resource_native_type, pe.resource_scope,
  pe.resource_name, pe.resource_created_at, pe.resource_link, pe.user_identifier, pe.user_name,
  pe.source_app_identifier, pe.source_app_name, pe.user_type,
  (pe.archived or b.deleted_at is not null) as archived, pe.is_dismissed, pe.occurred_at,
  pe.audits, pe.created_at`);

export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The text a resource "contains" search matches: on `resource_events` the indexed expression of
 * its trigram index (migration resource-name-search), so that `ilike '%x%'` is read from the
 * index. A newline joins the columns; a search box cannot type one, so no match spans both.
 */
export const resourceSearchText = (alias: string) =>
  sql.raw(`(coalesce(${alias}.resource_name, '') || E'\\n' || coalesce(${alias}.resource_external_id, ''))`);

const containsPattern = (text: string) => `%${escapeLike(text)}%`;

/**
 * The resources whose name or id contains `text`, found among resource events (a row per resource
 * and deployment, trigram-indexed) rather than among every event. Not narrowed to a tenant: the
 * events they select are.
 */
const resourcesContaining = (text: string) =>
  sql`select re_search.resource_external_id from resource_events re_search
    where ${resourceSearchText("re_search")} ilike ${containsPattern(text)}`;

/**
 * The WHERE conditions of a filter on `policy_events` under `alias` (`pe`). Dismissed-ness is
 * read from `dismissedColumn` (the event's own flag, or the resource event's in List).
 */
export function filterConditions(q: EventQuery, alias: string, dismissedColumn: SQL): SQL[] {
  const col = (name: string) => sql.raw(`${alias}.${name}`);
  const out: SQL[] = [];
  if (q.types.length > 0 || q.includeDismissedType) {
    const parts: SQL[] = [];
    if (q.types.length > 0)
      parts.push(
        sql`${col("type")} in (${sql.join(
          q.types.map((t) => sql`${t}`),
          sql`, `,
        )})`,
      );
    if (q.includeDismissedType) parts.push(sql`${dismissedColumn} = true`);
    out.push(sql`(${sql.join(parts, sql` or `)})`);
  }
  if (q.resourceName)
    out.push(
      sql`${col("resource_external_id")} in (${resourcesContaining(q.resourceName)})`,
      sql`${resourceSearchText(alias)} ilike ${containsPattern(q.resourceName)}`,
    );
  if (q.resourceTypes.length > 0)
    out.push(
      sql`${col("resource_native_type")} in (${sql.join(
        q.resourceTypes.map((t) => sql`${t}`),
        sql`, `,
      )})`,
    );
  if (q.policyNames.length > 0)
    out.push(
      sql`${col("deployment_name")} in (${sql.join(
        q.policyNames.map((t) => sql`${t}`),
        sql`, `,
      )})`,
    );
  if (q.scopes.length > 0 || q.scopePrefixes.length > 0) {
    const parts: SQL[] = [];
    if (q.scopes.length > 0)
      parts.push(
        sql`lower(${col("resource_scope")}) in (${sql.join(
          q.scopes.map((s) => sql`${s}`),
          sql`, `,
        )})`,
      );
    for (const prefix of q.scopePrefixes)
      parts.push(sql`lower(${col("resource_external_id")}) like ${`${escapeLike(prefix)}/%`}`);
    out.push(sql`(${sql.join(parts, sql` or `)})`);
  }
  if (q.users.length > 0) {
    const list = sql.join(
      q.users.map((u) => sql`${u}`),
      sql`, `,
    );
    out.push(sql`(${col("user_identifier")} in (${list}) or ${col("user_name")} in (${list}))`);
  }
  if (q.policyId) out.push(sql`${col("bundle_id")} = ${q.policyId}`);
  if (q.start) out.push(sql`${col("occurred_at")} >= ${q.start.toISOString()}`);
  if (q.end) out.push(sql`${col("occurred_at")} < ${q.end.toISOString()}`);
  if (q.isDismissed !== undefined) out.push(sql`${dismissedColumn} = ${q.isDismissed}`);
  if (q.archived !== undefined) out.push(sql`${col("archived")} = ${q.archived}`);
  if (q.providers.length > 0)
    out.push(
      sql`${col("cloud_provider")} in (${sql.join(
        q.providers.map((p) => sql`${p}`),
        sql`, `,
      )})`,
    );
  return out;
}

/** Sort column of an order; ties are broken by id so that keyset pages neither skip nor repeat. */
export function sortColumn(
  orderBy: EventOrderBy,
  alias: string,
  timeColumn: string,
): { expr: SQL; kind: "time" | "text" } {
  switch (orderBy) {
    case EventOrderBy.RESOURCE_NAME:
      return { expr: sql.raw(`coalesce(${alias}.resource_name, '')`), kind: "text" };
    case EventOrderBy.POLICY_NAME:
      return { expr: sql.raw(`coalesce(${alias}.deployment_name, '')`), kind: "text" };
    case EventOrderBy.TYPE:
      return { expr: sql.raw(`${alias}.type`), kind: "text" };
    default:
      return { expr: sql.raw(timeColumn), kind: "time" };
  }
}

/** `(sort, id)` strictly after (or before) the keyset in the list's direction. */
export function keysetCondition(
  sort: { expr: SQL; kind: "time" | "text" },
  idColumn: SQL,
  keyset: Keyset,
  descending: boolean,
): SQL {
  const value = sort.kind === "time" ? sql`${keyset.value}::timestamptz` : sql`${keyset.value}`;
  return descending
    ? sql`(${sort.expr}, ${idColumn}) < (${value}, ${keyset.id})`
    : sql`(${sort.expr}, ${idColumn}) > (${value}, ${keyset.id})`;
}

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

export function where(parts: SQL[]): SQL {
  return parts.length === 0 ? sql`true` : sql.join(parts, sql` and `);
}

export async function pageOf<T extends { sort_value: string; id: string }>(
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

/**
 * A filter's events read a matched value at a time: for each value `values` yields (one column),
 * the events whose `column` equals it, newest first along the `(tenant_id, column, occurred_at,
 * id)` index and stopped at a page (or at the count's cap), so that it costs the same however many
 * events each value has. `conditions` narrow this walk only.
 */
interface Walk {
  column: string;
  values: SQL;
  conditions: SQL[];
}

/**
 * The walks that read the events of a filter on users or on a resource name, and what is left of
 * the filter to check within each of them; none for other filters, which a single index serves.
 * Given both, the resources are walked and the users checked within them: a plain check on the
 * users is a filter on each event read, while one on the resource name is a subquery that the
 * planner may run again for every event of a user's walk.
 */
function walksOf(q: EventQuery): { walks: Walk[]; rest: EventQuery } | undefined {
  if (q.resourceName)
    return {
      // Within a matching resource, only the event's own text is checked again.
      walks: [
        {
          column: "resource_external_id",
          values: sql`select distinct resource_external_id from (${resourcesContaining(q.resourceName)}) found`,
          conditions: [sql`${resourceSearchText("pe")} ilike ${containsPattern(q.resourceName)}`],
        },
      ],
      rest: { ...q, resourceName: undefined },
    };
  if (q.users.length > 0) {
    const users = sql`${sql.param(q.users)}::text[]`;
    const listed = sql`select distinct value from unnest(${users}) listed (value)`;
    return {
      walks: [
        { column: "user_identifier", values: listed, conditions: [] },
        // An event whose identifier is listed was read by its identifier already; one without an
        // identifier was not.
        {
          column: "user_name",
          values: listed,
          conditions: [sql`(pe.user_identifier is null or pe.user_identifier <> all (${users}))`],
        },
      ],
      rest: { ...q, users: [] },
    };
  }
  return undefined;
}

/** The events of every walk, at most `perWalk` from each, as `policy_events` rows. */
const walked = (walks: Walk[], conditions: SQL[], order: SQL, perWalk: number) =>
  sql.join(
    walks.map(
      (walk) => sql`
        select pe.* from (${walk.values}) matched (value)
        cross join lateral (
          select * from policy_events pe
          where ${sql.raw(`pe.${walk.column}`)} = matched.value and ${where([...conditions, ...walk.conditions])}
          order by ${order} limit ${perWalk}
        ) pe`,
    ),
    sql` union all `,
  );

export async function listEvents(db: Database, tenantId: string, q: EventQuery, page: PageRequest) {
  const sort = sortColumn(page.orderBy, "pe", "pe.occurred_at");
  const walks = sort.kind === "time" ? walksOf(q) : undefined;
  if (walks) {
    // A page is among the first limit + offset events of each walk.
    const base = [
      sql`pe.tenant_id = ${tenantId}`,
      ...filterConditions(walks.rest, "pe", sql.raw("pe.is_dismissed")),
    ];
    return pageOf<EventRow>(
      db,
      (conditions, order, limit, offset) => sql`
        select ${EVENT_COLUMNS}, (${sort.expr})::text as sort_value
        from (${walked(walks.walks, conditions, order, limit + offset)}) pe
        left join bundles b on b.id = pe.bundle_id
        order by ${order} limit ${limit} offset ${offset}`,
      base,
      sort,
      sql.raw("pe.id"),
      page,
    );
  }
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
  const walks = cap ? walksOf(q) : undefined;
  const conditions = [
    sql`pe.tenant_id = ${tenantId}`,
    ...filterConditions(walks?.rest ?? q, "pe", sql.raw("pe.is_dismissed")),
  ];
  // Capped, each walk stops at the cap too: read in index order, none gathers all its events first.
  const events =
    cap && walks
      ? sql`select 1 from (${walked(walks.walks, conditions, sql`pe.occurred_at desc, pe.id desc`, cap)}) pe`
      : sql`select 1 from policy_events pe where ${where(conditions)}`;
  const inner = cap
    ? sql`select count(*)::int as n from (${events} limit ${cap}) capped`
    : sql`select count(*)::int as n from (${events}) counted`;
  const [row] = rowsOf<{ n: number }>(await db.execute(inner));
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

export async function setEventDismissed(db: Database, tenantId: string, id: string, dismissed: boolean) {
  await db.execute(
    updateCountingDays(
      sql`update policy_events set is_dismissed = ${dismissed}
        where tenant_id = ${tenantId} and id = ${id} and is_dismissed <> ${dismissed}`,
      { is_dismissed: sql`not is_dismissed` },
    ),
  );
}

/** Drift of a resource that is compliant again becomes history. */
export async function markDriftHistorical(
  db: Database,
  tenantId: string,
  deploymentId: string,
  resourceExternalId: string,
): Promise<void> {
  await db.execute(
    updateCountingDays(
      sql`update policy_events set type = 'HISTORICAL_DRIFT'
        where tenant_id = ${tenantId} and deployment_id = ${deploymentId}
          and resource_external_id = ${resourceExternalId} and type = 'DRIFT'`,
      { type: sql`'DRIFT'` },
    ),
  );
}

/** Preventions and alerts since `since`: the requests that left a non-compliant state behind. */
export async function listRequestEventsSince(db: Database, tenantId: string, since: Date) {
  return db
    .select({
      deploymentId: policyEvents.deploymentId,
      resource: policyEvents.resourceExternalId,
      at: policyEvents.occurredAt,
    })
    .from(policyEvents)
    .where(
      and(
        eq(policyEvents.tenantId, tenantId),
        inArray(policyEvents.type, ["PREVENTION", "ALERT"]),
        gte(policyEvents.occurredAt, since),
      ),
    );
}

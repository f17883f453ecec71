import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Database } from "../../db/database";
import { updateCountingDays } from "./event-day-counts";
import type { EventQuery } from "./event-query";
import {
  EVENT_COLUMNS,
  filterConditions,
  type PageRequest,
  pageOf,
  type ResourceEventRow,
  rowsOf,
  sortColumn,
  where,
} from "./event-repository";
import { resourceEvents } from "./event-schema";

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

/** How many events each (deployment, resource) pair has, for the resource events of one page. */
export async function countEventsPerResource(
  db: Database,
  tenantId: string,
  pairs: { deploymentId: string; resource: string }[],
): Promise<Map<string, number>> {
  if (pairs.length === 0) return new Map();
  const rows = rowsOf<{ deployment_id: string; resource_external_id: string; n: number }>(
    await db.execute(sql`
      select deployment_id, resource_external_id, count(*)::int as n from policy_events
      where tenant_id = ${tenantId} and (${sql.join(
        pairs.map((p) => sql`(deployment_id = ${p.deploymentId} and resource_external_id = ${p.resource})`),
        sql` or `,
      )})
      group by deployment_id, resource_external_id`),
  );
  return new Map(rows.map((r) => [`${r.deployment_id}\u0000${r.resource_external_id}`, Number(r.n)]));
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
    await tx.execute(
      updateCountingDays(
        sql`update policy_events set is_dismissed = ${dismissed}
          where tenant_id = ${tenantId} and deployment_id = ${re.deployment_id}
            and resource_external_id = ${re.resource_external_id} and is_dismissed <> ${dismissed}`,
        { is_dismissed: sql`not is_dismissed` },
      ),
    );
  });
}

/** Each resource event's kind and time, for the deployments given. */
export async function listResourceEventStates(db: Database, tenantId: string, deploymentIds: string[]) {
  return db
    .select({
      deploymentId: resourceEvents.deploymentId,
      resource: resourceEvents.resourceExternalId,
      type: resourceEvents.type,
      at: resourceEvents.lastOccurredAt,
    })
    .from(resourceEvents)
    .where(and(eq(resourceEvents.tenantId, tenantId), inArray(resourceEvents.deploymentId, deploymentIds)));
}

/** Re-derives each resource event's newest event from the stored events (dismissed flags kept). */
export async function rebuildResourceEvents(db: Database, tenantId: string): Promise<void> {
  await db.execute(sql`
    update resource_events re set
      last_event_id = latest.id, type = latest.type, last_occurred_at = latest.occurred_at, updated_at = now()
    from (
      select distinct on (deployment_id, resource_external_id) id, deployment_id, resource_external_id, type, occurred_at
      from policy_events
      where tenant_id = ${tenantId} and deployment_id is not null and resource_external_id is not null
      order by deployment_id, resource_external_id, occurred_at desc, id desc
    ) latest
    where re.tenant_id = ${tenantId} and re.deployment_id = latest.deployment_id
      and re.resource_external_id = latest.resource_external_id`);
}

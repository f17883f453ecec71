import { and, eq, lt, sql } from "drizzle-orm";
import type { Database } from "../../db/database";
import { requestCounts, requestShapes } from "../../db/schema/request-summaries";
import { rowsOf } from "./event-repository";
import type { RequestSummary } from "./request-summary";

/** Rows per INSERT statement. */
const BATCH = 1000;

/**
 * Adds a batch's requests: each distinct request once, and its day's count. Run in the
 * transaction that moves the connector's position, so that a repeated batch is never counted twice.
 */
export async function addRequestSummaries(
  db: Database,
  tenantId: string,
  connectorId: string,
  summaries: RequestSummary[],
): Promise<void> {
  for (let start = 0; start < summaries.length; start += BATCH) {
    const chunk = summaries.slice(start, start + BATCH);
    // A request of several days in one batch is one shape, sampled by its newest record.
    const shapes = new Map<string, typeof requestShapes.$inferInsert>();
    for (const s of chunk) {
      const seen = shapes.get(s.requestKey);
      if (seen && seen.lastSeenAt.getTime() >= s.lastSeenAt.getTime()) continue;
      shapes.set(s.requestKey, {
        tenantId,
        connectorId,
        requestKey: s.requestKey,
        refused: s.refused,
        account: s.account,
        action: s.action,
        request: seen?.request ?? JSON.stringify(s.request),
        lastEventId: s.lastEventId,
        lastSeenAt: s.lastSeenAt,
      });
    }
    await db
      .insert(requestShapes)
      .values([...shapes.values()])
      .onConflictDoUpdate({
        target: [requestShapes.tenantId, requestShapes.connectorId, requestShapes.requestKey],
        set: {
          lastEventId: sql`case when excluded.last_seen_at >= ${requestShapes.lastSeenAt} then excluded.last_event_id else ${requestShapes.lastEventId} end`,
          lastSeenAt: sql`greatest(${requestShapes.lastSeenAt}, excluded.last_seen_at)`,
        },
      });
    await db
      .insert(requestCounts)
      .values(
        chunk.map((s) => ({ tenantId, connectorId, day: s.day, requestKey: s.requestKey, count: s.count })),
      )
      .onConflictDoUpdate({
        target: [
          requestCounts.tenantId,
          requestCounts.connectorId,
          requestCounts.day,
          requestCounts.requestKey,
        ],
        set: { count: sql`${requestCounts.count} + excluded.count` },
      });
  }
}

/** Forgets the days before `day` (YYYY-MM-DD), and the requests no kept day counts. */
export async function pruneRequestSummaries(
  db: Database,
  tenantId: string,
  connectorId: string,
  day: string,
) {
  const forgotten = await db
    .delete(requestCounts)
    .where(
      and(
        eq(requestCounts.tenantId, tenantId),
        eq(requestCounts.connectorId, connectorId),
        lt(requestCounts.day, day),
      ),
    )
    .returning({ key: requestCounts.requestKey });
  if (forgotten.length === 0) return;
  await db.execute(sql`
    delete from request_shapes s
    where s.tenant_id = ${tenantId} and s.connector_id = ${connectorId}
      and not exists (
        select 1 from request_counts c
        where c.tenant_id = s.tenant_id and c.connector_id = s.connector_id and c.request_key = s.request_key
      )`);
}

export interface StoredRequestRow {
  refused: boolean;
  /** The request as stored (JSON text of its stored form). */
  request: string;
  count: number;
  lastEventId: string;
  lastSeenAt: Date;
}

/** A connector's distinct requests since `day`, each with its count over the days; newest first. */
export async function listStoredRequests(
  db: Database,
  tenantId: string,
  connectorId: string,
  day: string,
): Promise<StoredRequestRow[]> {
  const rows = rowsOf<{
    refused: boolean;
    request: string;
    count: number;
    last_event_id: string;
    last_seen_at: string;
  }>(
    await db.execute(sql`
      select s.refused, s.request, c.count, s.last_event_id, s.last_seen_at
      from (
        select request_key, sum(count)::int as count
        from request_counts
        where tenant_id = ${tenantId} and connector_id = ${connectorId} and day >= ${day}
        group by request_key
      ) c
      join request_shapes s
        on s.tenant_id = ${tenantId} and s.connector_id = ${connectorId} and s.request_key = c.request_key
      order by s.last_seen_at desc`),
  );
  return rows.map((r) => ({
    refused: r.refused,
    request: r.request,
    count: r.count,
    lastEventId: r.last_event_id,
    lastSeenAt: new Date(r.last_seen_at),
  }));
}

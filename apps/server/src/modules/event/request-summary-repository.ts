import type { RecordedRequest } from "@palisade/policy-engine/evaluators/scp/evaluate-recorded";
import { and, eq, gte, lt, sql } from "drizzle-orm";
import type { Database } from "../../db/database";
import { rowsOf } from "./event-repository";
import { requestCounts, requestShapes } from "./request-summary-schema";

/** One distinct request of one day, as the `request_summaries` table keeps it. */
export interface RequestSummary {
  day: string;
  requestKey: string;
  refused: boolean;
  account: string;
  action: string;
  request: RecordedRequest;
  count: number;
  lastEventId: string;
  lastSeenAt: Date;
}

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

/**
 * A connector's distinct requests since `day` (YYYY-MM-DD), each with its count over the days;
 * newest first. Two reads joined here: the counts summed per request, and the requests seen
 * since (a join in the database costs more than both).
 */
export async function listStoredRequests(
  db: Database,
  tenantId: string,
  connectorId: string,
  day: string,
): Promise<StoredRequestRow[]> {
  const counts = rowsOf<{ request_key: string; count: number }>(
    await db.execute(sql`
      select request_key, sum(count)::int as count
      from request_counts
      where tenant_id = ${tenantId} and connector_id = ${connectorId} and day >= ${day}
      group by request_key`),
  );
  const countOf = new Map(counts.map((c) => [c.request_key, c.count]));
  const shapes = await db
    .select({
      requestKey: requestShapes.requestKey,
      refused: requestShapes.refused,
      request: requestShapes.request,
      lastEventId: requestShapes.lastEventId,
      lastSeenAt: requestShapes.lastSeenAt,
    })
    .from(requestShapes)
    .where(
      and(
        eq(requestShapes.tenantId, tenantId),
        eq(requestShapes.connectorId, connectorId),
        gte(requestShapes.lastSeenAt, new Date(`${day}T00:00:00Z`)),
      ),
    );
  const rows: StoredRequestRow[] = [];
  for (const { requestKey, ...shape } of shapes) {
    const count = countOf.get(requestKey);
    if (count) rows.push({ ...shape, count });
  }
  return rows.sort((a, b) => b.lastSeenAt.getTime() - a.lastSeenAt.getTime());
}

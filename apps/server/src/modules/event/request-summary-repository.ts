import type { RecordedRequest } from "@palisade/policy-engine/evaluators/scp/evaluate-recorded";
import { and, eq, lt, sql } from "drizzle-orm";
import type { Database } from "../../db/database";
import { requestSummaries } from "../../db/schema/request-summaries";
import type { RequestSummary } from "./request-summary";

/** Rows per INSERT statement. */
const BATCH = 1000;

/**
 * Adds a batch's requests to their days' rows. Run in the transaction that moves the
 * connector's position, so that a repeated batch is never counted twice.
 */
export async function addRequestSummaries(
  db: Database,
  tenantId: string,
  connectorId: string,
  summaries: RequestSummary[],
): Promise<void> {
  for (let start = 0; start < summaries.length; start += BATCH) {
    const rows = summaries.slice(start, start + BATCH).map((s) => ({ tenantId, connectorId, ...s }));
    await db
      .insert(requestSummaries)
      .values(rows)
      .onConflictDoUpdate({
        target: [
          requestSummaries.tenantId,
          requestSummaries.connectorId,
          requestSummaries.day,
          requestSummaries.requestKey,
        ],
        set: {
          count: sql`${requestSummaries.count} + excluded.count`,
          lastEventId: sql`case when excluded.last_seen_at >= ${requestSummaries.lastSeenAt} then excluded.last_event_id else ${requestSummaries.lastEventId} end`,
          lastSeenAt: sql`greatest(${requestSummaries.lastSeenAt}, excluded.last_seen_at)`,
        },
      });
  }
}

/** Forgets the days before `day` (YYYY-MM-DD): no preview reaches further back. */
export async function pruneRequestSummaries(
  db: Database,
  tenantId: string,
  connectorId: string,
  day: string,
) {
  await db
    .delete(requestSummaries)
    .where(
      and(
        eq(requestSummaries.tenantId, tenantId),
        eq(requestSummaries.connectorId, connectorId),
        lt(requestSummaries.day, day),
      ),
    );
}

export interface StoredRequest {
  refused: boolean;
  request: RecordedRequest;
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
): Promise<StoredRequest[]> {
  const rows = await db
    .select({
      refused: requestSummaries.refused,
      request: sql<RecordedRequest>`(array_agg(${requestSummaries.request}))[1]`,
      count: sql<number>`sum(${requestSummaries.count})::int`,
      lastEventId: sql<string>`(array_agg(${requestSummaries.lastEventId} order by ${requestSummaries.lastSeenAt} desc))[1]`,
      lastSeenAt: sql<string>`max(${requestSummaries.lastSeenAt})`,
    })
    .from(requestSummaries)
    .where(
      and(
        eq(requestSummaries.tenantId, tenantId),
        eq(requestSummaries.connectorId, connectorId),
        sql`${requestSummaries.day} >= ${day}`,
      ),
    )
    .groupBy(requestSummaries.requestKey, requestSummaries.refused)
    .orderBy(sql`max(${requestSummaries.lastSeenAt}) desc`);
  return rows.map((r) => ({ ...r, lastSeenAt: new Date(r.lastSeenAt) }));
}

import { and, count, desc, eq, gte, sql } from "drizzle-orm";
import type { TrailFileOutcome } from "../../cloud/cloud-provider";
import type { Database } from "../../db/database";
import { trailFiles } from "./trail-file-schema";

/** The ledger's files of one `<account>/<region>` prefix from its floor on. */
export async function listTrailFiles(
  db: Database,
  tenantId: string,
  connectorId: string,
  prefix: string,
  fromDay: string,
): Promise<Map<string, { state: TrailFileOutcome["state"]; attempts: number }>> {
  const rows = await db
    .select({ key: trailFiles.key, state: trailFiles.state, attempts: trailFiles.attempts })
    .from(trailFiles)
    .where(
      and(
        eq(trailFiles.tenantId, tenantId),
        eq(trailFiles.connectorId, connectorId),
        eq(trailFiles.prefix, prefix),
        gte(trailFiles.day, fromDay),
      ),
    );
  return new Map(
    rows.map((r) => [r.key, { state: r.state as TrailFileOutcome["state"], attempts: r.attempts }]),
  );
}

/** Records the outcome of each file read; a file read again replaces its earlier outcome. */
export async function recordTrailFiles(
  db: Database,
  tenantId: string,
  connectorId: string,
  files: TrailFileOutcome[],
): Promise<void> {
  if (files.length === 0) return;
  await db
    .insert(trailFiles)
    .values(
      files.map((f) => ({
        tenantId,
        connectorId,
        prefix: f.prefix,
        day: f.day,
        key: f.key,
        state: f.state,
        attempts: f.attempts,
        records: f.records,
        error: f.error ?? null,
      })),
    )
    .onConflictDoUpdate({
      target: [trailFiles.connectorId, trailFiles.key],
      set: {
        state: sql`excluded.state`,
        attempts: sql`excluded.attempts`,
        records: sql`excluded.records`,
        error: sql`excluded.error`,
        updatedAt: sql`now()`,
      },
    });
}

/**
 * Forgets the files read below each prefix's floor: listing never goes there again. Files given
 * up are kept, so the connector keeps reporting them.
 */
export async function pruneTrailFiles(
  db: Database,
  tenantId: string,
  connectorId: string,
  floors: Record<string, string>,
): Promise<void> {
  const entries = Object.entries(floors);
  if (entries.length === 0) return;
  await db.execute(sql`
    delete from trail_files t
    using unnest(${sql.param(entries.map(([p]) => p))}::text[], ${sql.param(entries.map(([, f]) => f))}::text[]) as f(prefix, floor)
    where t.tenant_id = ${tenantId} and t.connector_id = ${connectorId}
      and t.prefix = f.prefix and t.day < f.floor and t.state <> 'given_up'`);
}

/** The files given up on (read no more), and the newest one's error. */
export async function givenUpTrailFiles(
  db: Database,
  tenantId: string,
  connectorId: string,
): Promise<{ count: number; newest: { key: string; error: string | null } | undefined }> {
  const where = and(
    eq(trailFiles.tenantId, tenantId),
    eq(trailFiles.connectorId, connectorId),
    eq(trailFiles.state, "given_up"),
  );
  const [total] = await db.select({ n: count() }).from(trailFiles).where(where);
  const [newest] = await db
    .select({ key: trailFiles.key, error: trailFiles.error })
    .from(trailFiles)
    .where(where)
    .orderBy(desc(trailFiles.updatedAt), desc(trailFiles.key))
    .limit(1);
  return { count: total?.n ?? 0, newest };
}

import { and, eq } from "drizzle-orm";
import type { Database } from "../db/database";
import { jobs as jobRecords } from "./jobs-schema";

/**
 * The `jobs` table: the rows a user watches while background work they asked for runs (a fetch,
 * a hierarchy sync, an export). This file is its only writer.
 */
export type JobRecord = typeof jobRecords.$inferSelect;
type JobRecordChange = Partial<
  Pick<typeof jobRecords.$inferInsert, "status" | "progress" | "total" | "result" | "error" | "finishedAt">
>;

export async function insertJobRecord(
  db: Database,
  row: Pick<
    typeof jobRecords.$inferInsert,
    "tenantId" | "kind" | "createdBy" | "status" | "total" | "result"
  >,
): Promise<string> {
  const [job] = await db.insert(jobRecords).values(row).returning({ id: jobRecords.id });
  if (!job) throw new Error("job insert returned nothing");
  return job.id;
}

export async function updateJobRecord(
  db: Database,
  tenantId: string,
  id: string,
  change: JobRecordChange,
): Promise<void> {
  await db
    .update(jobRecords)
    .set(change)
    .where(and(eq(jobRecords.tenantId, tenantId), eq(jobRecords.id, id)));
}

/** Marks the work done: succeeded with its result, or failed with a message a person can act on. */
export async function finishJobRecord(
  db: Database,
  tenantId: string,
  id: string,
  outcome: { ok: true; result: object } | { ok: false; error: string },
): Promise<void> {
  await updateJobRecord(
    db,
    tenantId,
    id,
    outcome.ok
      ? { status: "SUCCEEDED", progress: 100, result: outcome.result, error: null, finishedAt: new Date() }
      : { status: "FAILED", result: null, error: outcome.error, finishedAt: new Date() },
  );
}

export async function findJobRecord(
  db: Database,
  tenantId: string,
  id: string,
): Promise<JobRecord | undefined> {
  const [row] = await db
    .select()
    .from(jobRecords)
    .where(and(eq(jobRecords.tenantId, tenantId), eq(jobRecords.id, id)))
    .limit(1);
  return row;
}

/** For links signed for a job's id alone (export downloads), which carry no tenant. */
export async function findJobRecordAnyTenant(db: Database, id: string): Promise<JobRecord | undefined> {
  const [row] = await db.select().from(jobRecords).where(eq(jobRecords.id, id)).limit(1);
  return row;
}

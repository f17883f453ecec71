import { and, eq } from "drizzle-orm";
import type { Database } from "../../db/database";
import { jobs as jobRows } from "../../db/schema/operations";

/** Rows of the `jobs` table that track exports are of kind `export:<kind>`. */
export const EXPORT_KIND_PREFIX = "export:";

export async function insertExportJob(
  db: Database,
  row: { tenantId: string; kind: string; createdBy: string | null; format: string },
): Promise<string> {
  const [job] = await db
    .insert(jobRows)
    .values({
      tenantId: row.tenantId,
      kind: `${EXPORT_KIND_PREFIX}${row.kind}`,
      status: "QUEUED",
      createdBy: row.createdBy,
      result: { format: row.format },
    })
    .returning({ id: jobRows.id });
  if (!job) throw new Error("job insert returned nothing");
  return job.id;
}

export async function findExportJob(db: Database, tenantId: string, jobId: string) {
  const [row] = await db
    .select({ status: jobRows.status })
    .from(jobRows)
    .where(and(eq(jobRows.tenantId, tenantId), eq(jobRows.id, jobId)))
    .limit(1);
  return row;
}

/** A download link is signed for the export's id alone and carries no tenant. */
export async function findExportJobAnyTenant(db: Database, jobId: string) {
  const [row] = await db
    .select({ status: jobRows.status, kind: jobRows.kind, result: jobRows.result, error: jobRows.error })
    .from(jobRows)
    .where(eq(jobRows.id, jobId))
    .limit(1);
  return row;
}

export async function updateExportJob(
  db: Database,
  tenantId: string,
  jobId: string,
  values: Partial<
    Pick<typeof jobRows.$inferInsert, "status" | "progress" | "total" | "result" | "error" | "finishedAt">
  >,
): Promise<void> {
  await db
    .update(jobRows)
    .set(values)
    .where(and(eq(jobRows.tenantId, tenantId), eq(jobRows.id, jobId)));
}

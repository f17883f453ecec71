import { and, asc, eq, gt, lt, sql } from "drizzle-orm";
import type { Database } from "../../db/database";
import { exportChunks } from "./export-schema";

/** Forgets what an earlier, interrupted attempt wrote of the export's file. */
export async function deleteExportFile(db: Database, tenantId: string, jobId: string): Promise<void> {
  await db
    .delete(exportChunks)
    .where(and(eq(exportChunks.tenantId, tenantId), eq(exportChunks.jobId, jobId)));
}

export async function appendExportChunk(
  db: Database,
  tenantId: string,
  jobId: string,
  seq: number,
  data: Buffer,
): Promise<void> {
  await db.insert(exportChunks).values({ tenantId, jobId, seq, data });
}

/** The size of the export's file in bytes. */
export async function exportFileSize(db: Database, tenantId: string, jobId: string): Promise<number> {
  const [row] = await db
    .select({ bytes: sql<string>`coalesce(sum(octet_length(${exportChunks.data})), 0)` })
    .from(exportChunks)
    .where(and(eq(exportChunks.tenantId, tenantId), eq(exportChunks.jobId, jobId)));
  return Number(row?.bytes ?? 0);
}

/** The export's file, a piece at a time, so a download holds one piece in memory. */
export async function* readExportFile(db: Database, tenantId: string, jobId: string): AsyncGenerator<Buffer> {
  let after = -1;
  for (;;) {
    const [row] = await db
      .select({ seq: exportChunks.seq, data: exportChunks.data })
      .from(exportChunks)
      .where(
        and(eq(exportChunks.tenantId, tenantId), eq(exportChunks.jobId, jobId), gt(exportChunks.seq, after)),
      )
      .orderBy(asc(exportChunks.seq))
      .limit(1);
    if (!row) return;
    after = row.seq;
    yield row.data;
  }
}

/** Deletes the files of every tenant's exports written before `before` (their links are long dead). */
export async function deleteExportFilesBeforeAnyTenant(db: Database, before: Date): Promise<number> {
  const deleted = await db
    .delete(exportChunks)
    .where(lt(exportChunks.createdAt, before))
    .returning({ jobId: exportChunks.jobId });
  return new Set(deleted.map((d) => d.jobId)).size;
}

import type { Database } from "../../db/database";
import { auditLog } from "../../db/schema/operations";

export type NewAuditRecord = typeof auditLog.$inferInsert;

export async function insertAuditRecord(db: Database, record: NewAuditRecord): Promise<void> {
  await db.insert(auditLog).values(record);
}

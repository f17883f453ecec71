import { type AuditChainRecord, auditRecordHash, GENESIS_HASH } from "@palisade/api/audit-chain";
import { and, asc, eq, lt } from "drizzle-orm";
import type { Database, Transaction } from "../../db/database";
import { auditChainHeads, auditLog } from "./audit-schema";

export type AuditRow = typeof auditLog.$inferSelect;
export type NewAuditFields = Omit<
  AuditChainRecord,
  "id" | "sequence" | "occurredAt" | "previousHash" | "hash"
>;

/**
 * Appends a record to the end of its tenant's chain, in the caller's transaction. The chain head
 * row is locked first, so concurrent writers in one tenant append one after the other (and a
 * rolled-back change leaves neither the record nor a moved head).
 */
export async function appendAuditRecord(
  tx: Transaction,
  fields: NewAuditFields,
  now = new Date(),
): Promise<AuditRow> {
  const head = await lockChainHead(tx, fields.tenantId);
  const chained = {
    ...fields,
    id: crypto.randomUUID(),
    sequence: head.sequence + 1,
    occurredAt: now.toISOString(),
    previousHash: head.hash,
  };
  const hash = auditRecordHash(chained);
  const [row] = await tx
    .insert(auditLog)
    .values({
      ...rowFields(chained),
      hash,
    })
    .returning();
  await tx
    .update(auditChainHeads)
    .set({ sequence: chained.sequence, hash })
    .where(eq(auditChainHeads.tenantId, fields.tenantId));
  return row as AuditRow;
}

async function lockChainHead(tx: Transaction, tenantId: string) {
  await tx
    .insert(auditChainHeads)
    .values({ tenantId, sequence: 0, hash: GENESIS_HASH })
    .onConflictDoNothing();
  const [head] = await tx
    .select({ sequence: auditChainHeads.sequence, hash: auditChainHeads.hash })
    .from(auditChainHeads)
    .where(eq(auditChainHeads.tenantId, tenantId))
    .for("update");
  if (!head) throw new Error("audit chain head missing");
  return head;
}

/** The columns of a record: the chain's fields one to one, `occurredAt` stored as `created_at`. */
function rowFields({ occurredAt, before, after, ...fields }: Omit<AuditChainRecord, "hash">) {
  return { ...fields, createdAt: new Date(occurredAt), before: before ?? null, after: after ?? null };
}

/** A stored row as the chain (and the JSON-lines export) sees it. */
export function chainRecordOf({ createdAt, before, after, ...fields }: AuditRow): AuditChainRecord {
  return { ...fields, occurredAt: createdAt.toISOString(), before: before ?? null, after: after ?? null };
}

/**
 * Seals the records written before the chain existed (empty hashes): each such tenant's records
 * are chained in sequence order and its head set. Runs at start-up, before any change is served.
 */
export async function sealUnchainedAuditRecords(db: Database): Promise<number> {
  const tenants = await db
    .selectDistinct({ tenantId: auditLog.tenantId })
    .from(auditLog)
    .where(eq(auditLog.hash, ""));
  for (const { tenantId } of tenants) {
    await db.transaction(async (tx) => {
      const head = await lockChainHead(tx, tenantId);
      if (head.sequence > 0)
        throw new Error(`tenant ${tenantId} has unsealed audit records after its chain began`);
      let previousHash = GENESIS_HASH;
      let last = 0;
      const rows = await tx
        .select()
        .from(auditLog)
        .where(eq(auditLog.tenantId, tenantId))
        .orderBy(asc(auditLog.sequence));
      for (const row of rows) {
        const { hash: _unsealed, ...fields } = { ...chainRecordOf(row), previousHash };
        const hash = auditRecordHash(fields);
        await tx.update(auditLog).set({ previousHash, hash }).where(eq(auditLog.id, row.id));
        previousHash = hash;
        last = row.sequence;
      }
      await tx
        .update(auditChainHeads)
        .set({ sequence: last, hash: previousHash })
        .where(eq(auditChainHeads.tenantId, tenantId));
    });
  }
  return tenants.length;
}

/** Deletes a tenant's records older than `before` (the oldest, so the rest still verify). */
export async function deleteAuditRecordsBefore(
  db: Database,
  tenantId: string,
  before: Date,
): Promise<number> {
  const deleted = await db
    .delete(auditLog)
    .where(and(eq(auditLog.tenantId, tenantId), lt(auditLog.createdAt, before)))
    .returning({ id: auditLog.id });
  return deleted.length;
}

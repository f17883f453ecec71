import { bigint, index, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { id, tenantId } from "../../db/columns";

/**
 * Who changed what, written in the transaction of the change. A tenant's records form a hash
 * chain (`@palisade/api/audit-chain`): each carries the hash of the one before and its own.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: id(),
    tenantId: tenantId(),
    /** 1, 2, 3... within the tenant, in the order of the chain. */
    sequence: bigint("sequence", { mode: "number" }).notNull(),
    /** user | api_key | chat | system | anonymous */
    actorType: text("actor_type").notNull(),
    actorId: text("actor_id"),
    actorName: text("actor_name"),
    /** Where a change made by code came from (header x-palisade-source: path@commit). */
    actorSource: text("actor_source"),
    action: text("action").notNull(),
    targetType: text("target_type"),
    targetId: text("target_id"),
    targetName: text("target_name"),
    before: jsonb("before"),
    after: jsonb("after"),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    /** Set by the writer (not the database), so the hash covers the exact instant stored. */
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    previousHash: text("previous_hash").notNull(),
    hash: text("hash").notNull(),
  },
  (t) => [
    index("audit_log_tenant_created_idx").on(t.tenantId, t.createdAt),
    uniqueIndex("audit_log_tenant_sequence_idx").on(t.tenantId, t.sequence),
  ],
);

/**
 * The end of each tenant's chain. Writers lock the row (select for update) before appending, so
 * concurrent changes in one tenant append one after the other; pruning old records leaves it be.
 */
export const auditChainHeads = pgTable("audit_chain_heads", {
  tenantId: tenantId().primaryKey(),
  sequence: bigint("sequence", { mode: "number" }).notNull(),
  hash: text("hash").notNull(),
});

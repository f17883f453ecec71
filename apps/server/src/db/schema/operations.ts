import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { id, tenantId, timestamps } from "./columns";

/** Who did what: written by every mutating RPC. */
export const auditLog = pgTable(
  "audit_log",
  {
    id: id(),
    tenantId: tenantId(),
    /** user | api_key | system */
    actorType: text("actor_type").notNull(),
    actorId: text("actor_id"),
    actorName: text("actor_name"),
    action: text("action").notNull(),
    targetType: text("target_type"),
    targetId: text("target_id"),
    details: jsonb("details").notNull().default(sql`'{}'::jsonb`),
    ipAddress: text("ip_address"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("audit_log_tenant_created_idx").on(t.tenantId, t.createdAt)],
);

/**
 * Long-running work a user started (export, sync), with its progress. Queueing itself is
 * pg-boss's, in its own schema; this table is what the user sees.
 */
export const jobs = pgTable(
  "jobs",
  {
    id: id(),
    tenantId: tenantId(),
    kind: text("kind").notNull(),
    status: text("status").notNull().default("QUEUED"),
    progress: integer("progress").notNull().default(0),
    total: integer("total"),
    message: text("message"),
    result: jsonb("result"),
    error: text("error"),
    createdBy: text("created_by"),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    ...timestamps(),
  },
  (t) => [index("jobs_tenant_idx").on(t.tenantId, t.createdAt)],
);

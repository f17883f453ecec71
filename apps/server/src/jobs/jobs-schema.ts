import { index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { id, tenantId, timestamps } from "../db/columns";

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

import { customType, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { id, tenantId, timestamps } from "./columns";

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

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * The file of an export, in pieces of about a megabyte, in the database every replica shares: a
 * link signed by one replica downloads through any other. Written by the export module only.
 */
export const exportChunks = pgTable(
  "export_chunks",
  {
    tenantId: tenantId(),
    jobId: text("job_id")
      .notNull()
      .references(() => jobs.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    data: bytea("data").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.seq] }), index("export_chunks_created_idx").on(t.createdAt)],
);

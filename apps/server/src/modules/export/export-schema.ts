import { customType, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { tenantId } from "../../db/columns";
import { jobs } from "../../jobs/jobs-schema";

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

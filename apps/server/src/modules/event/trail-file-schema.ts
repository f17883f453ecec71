import { index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { tenantId } from "../../db/columns";
import { connectors } from "../connector/connector-schema";

/**
 * The log files of an AWS organisation trail that were read, or failed, within the re-read window
 * of their account/region prefix (see `cloud/aws/trail-position.ts`). A key here is never read
 * again; a failed key is retried until `attempts` reaches the bound, then reported.
 */
export const trailFiles = pgTable(
  "trail_files",
  {
    tenantId: tenantId(),
    connectorId: text("connector_id")
      .notNull()
      .references(() => connectors.id, { onDelete: "cascade" }),
    /** `<account>/<region>` of the file's prefix. */
    prefix: text("prefix").notNull(),
    /** The delivery day of the key's folder, `YYYY/MM/DD`. */
    day: text("day").notNull(),
    key: text("key").notNull(),
    /** read | failed | given_up */
    state: text("state").notNull(),
    attempts: integer("attempts").notNull().default(0),
    records: integer("records").notNull().default(0),
    error: text("error"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.connectorId, t.key] }),
    index("trail_files_prefix_idx").on(t.connectorId, t.prefix, t.day),
    index("trail_files_tenant_idx").on(t.tenantId),
  ],
);

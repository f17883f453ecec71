import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { id, tenantId, timestamps } from "../../db/columns";

export const connectors = pgTable(
  "connectors",
  {
    id: id(),
    tenantId: tenantId(),
    name: text("name").notNull(),
    /** aws | azure | sandbox */
    kind: text("kind").notNull(),
    /** Non-secret settings (account ids, role ARN, external id, endpoints). */
    config: jsonb("config").notNull().default(sql`'{}'::jsonb`),
    /** Secrets encrypted with the server's secret key; never returned by an RPC. */
    secretCiphertext: text("secret_ciphertext"),
    status: text("status").notNull().default("NEVER_SYNCED"),
    lastSyncAt: timestamp("last_sync_at", { withTimezone: true }),
    lastError: text("last_error"),
    /** Position in the provider's audit stream up to which events were fetched. */
    eventCursor: text("event_cursor"),
    eventsFetchedAt: timestamp("events_fetched_at", { withTimezone: true }),
    /** Reads of the last event fetch that failed, each with its reason; a read that succeeds is removed. */
    readFailures: jsonb("read_failures")
      .$type<{ activityLog?: string; compliance?: string }>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    /**
     * Why the last read of the audit stream failed or was incomplete ("CODE: sentence"), shown on
     * the Connectors page; null after a complete read.
     */
    eventsError: text("events_error"),
    createdBy: text("created_by"),
    ...timestamps(),
  },
  (t) => [index("connectors_tenant_idx").on(t.tenantId)],
);

/** A node of a connector's cloud hierarchy (AWS root/OU/account, Azure MG/subscription/RG). */
export const hierarchyNodes = pgTable(
  "hierarchy_nodes",
  {
    id: id(),
    tenantId: tenantId(),
    connectorId: text("connector_id")
      .notNull()
      .references(() => connectors.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    externalId: text("external_id").notNull(),
    parentExternalId: text("parent_external_id"),
    name: text("name").notNull(),
    type: text("type").notNull(),
    link: text("link"),
    ...timestamps(),
  },
  (t) => [
    index("hierarchy_nodes_tenant_idx").on(t.tenantId),
    uniqueIndex("hierarchy_nodes_connector_external_idx").on(t.connectorId, t.externalId),
  ],
);

import { boolean, date, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { tenantId } from "../../db/columns";
import { connectors } from "../connector/connector-schema";

// Every AWS request the organisation trail delivered, folded at ingest into what the impact
// preview evaluates. Classified events keep only the requests a deployed guardrail concerned; a
// preview of a guardrail not deployed yet needs all of them. A request is its account, region,
// action, role or user, and the condition keys and resources derived from its parameters: the
// same few requests repeat day after day, so 30 days of a 100-account organisation (150 million
// records) fold into a few hundred thousand distinct requests and narrow daily counts. The
// preview sums the counts of its period, joins each distinct request once and evaluates that.
// Requests in the management account are not kept: SCPs never restrict it.

/** One distinct request, written the first time it is seen. */
export const requestShapes = pgTable(
  "request_shapes",
  {
    tenantId: tenantId(),
    connectorId: text("connector_id")
      .notNull()
      .references(() => connectors.id, { onDelete: "cascade" }),
    /** Hash of `request` and `refused`. */
    requestKey: text("request_key").notNull(),
    /** The cloud refused the request (any permission denial). */
    refused: boolean("refused").notNull(),
    account: text("account").notNull(),
    action: text("action").notNull(),
    /** The RecordedRequest as JSON text (read back whole, never queried into). */
    request: text("request").notNull(),
    /** The newest record of the request: the preview's sample of it. */
    lastEventId: text("last_event_id").notNull(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.connectorId, t.requestKey] })],
);

/** How many times a distinct request was made on one day. */
export const requestCounts = pgTable(
  "request_counts",
  {
    tenantId: tenantId(),
    connectorId: text("connector_id")
      .notNull()
      .references(() => connectors.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    requestKey: text("request_key").notNull(),
    count: integer("count").notNull(),
  },
  // The key's prefix serves the preview's read of a connector's days.
  (t) => [primaryKey({ columns: [t.tenantId, t.connectorId, t.day, t.requestKey] })],
);

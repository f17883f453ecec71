import { boolean, date, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { tenantId } from "./columns";
import { connectors } from "./connectors";

/**
 * Every AWS request the organisation trail delivered, folded at ingest into what the impact
 * preview evaluates: one row per day and distinct request (account, region, action, role or
 * user, and the condition keys and resources derived from its parameters), with how many times
 * it was made that day and whether the cloud refused it. Classified events keep only the
 * requests a deployed guardrail concerned; a preview of a guardrail not deployed yet needs all
 * of them, and 30 days of a 100-account organisation (150 million records) fold into rows that
 * repeat the same few requests, so the preview reads thousands of rows, not millions of records.
 * Requests in the management account are not kept: SCPs never restrict it.
 */
export const requestSummaries = pgTable(
  "request_summaries",
  {
    tenantId: tenantId(),
    connectorId: text("connector_id")
      .notNull()
      .references(() => connectors.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    /** Hash of `request` (and of `refused`): the row's identity within the day. */
    requestKey: text("request_key").notNull(),
    /** The cloud refused the request (any permission denial). */
    refused: boolean("refused").notNull(),
    account: text("account").notNull(),
    action: text("action").notNull(),
    /** The RecordedRequest the records stand for, without the time of each. */
    request: jsonb("request").notNull(),
    count: integer("count").notNull(),
    /** The newest record folded into the row: the preview's sample of it. */
    lastEventId: text("last_event_id").notNull(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull(),
  },
  // The key's prefix serves the preview's read of a connector's days.
  (t) => [primaryKey({ columns: [t.tenantId, t.connectorId, t.day, t.requestKey] })],
);

import { index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { organization } from "../modules/tenant/organization-schema";

/**
 * The first answer of a creating call sent with an `Idempotency-Key` header, per tenant, caller,
 * method and key: a retry of a call whose answer was lost gets that answer again instead of
 * creating a second record. `response` is empty while the first call runs.
 */
export const idempotentCalls = pgTable(
  "idempotent_calls",
  {
    tenantId: text("tenant_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    callerId: text("caller_id").notNull(),
    procedure: text("procedure").notNull(),
    key: text("key").notNull(),
    /** SHA-256 of the request: the same key with another request is refused. */
    requestDigest: text("request_digest").notNull(),
    /** The answer, protobuf binary in base64. */
    response: text("response"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.callerId, t.procedure, t.key] }),
    index("idempotent_calls_created_idx").on(t.tenantId, t.createdAt),
  ],
);

import { boolean, doublePrecision, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Token buckets of the rate limits (public RPCs per client address, `/api/auth/*` per address and
 * path), shared by every replica on the database. Not a tenant table: keys are client addresses.
 */
export const rateLimitBuckets = pgTable(
  "rate_limit_buckets",
  {
    key: text("key").primaryKey(),
    tokens: doublePrecision("tokens").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
    /** Whether the last lease taken from the row found room for a call. */
    allowed: boolean("allowed").notNull(),
    /** Calls the last lease took for a replica to serve from memory (0 when it found no room). */
    leased: doublePrecision("leased").notNull().default(0),
  },
  (t) => [index("rate_limit_buckets_updated_idx").on(t.updatedAt)],
);

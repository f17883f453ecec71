import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { id, tenantId, timestamps } from "../../db/columns";

/**
 * What a policy would have denied on some scopes over a recent period, replayed from the
 * cloud's audit stream. One row per (policy, parameters, scopes, period) of a tenant: asking
 * again answers the row while it is recent, and replays into the same row otherwise.
 */
export const impactPreviews = pgTable(
  "impact_previews",
  {
    id: id(),
    tenantId: tenantId(),
    /** Hash of the policy slug, parameters, scopes, exclusions and period. */
    cacheKey: text("cache_key").notNull(),
    policySlug: text("policy_slug").notNull(),
    provider: text("provider").notNull(),
    connectorId: text("connector_id").notNull(),
    parameters: jsonb("parameters").notNull(),
    /** StoredScope[] of the included and excluded scopes. */
    scopes: jsonb("scopes").notNull(),
    excludedScopes: jsonb("excluded_scopes").notNull(),
    periodDays: integer("period_days").notNull(),
    /** QUEUED | RUNNING | SUCCEEDED | FAILED */
    status: text("status").notNull().default("QUEUED"),
    pagesRead: integer("pages_read").notNull().default(0),
    recordsEvaluated: integer("records_evaluated").notNull().default(0),
    periodStart: timestamp("period_start", { withTimezone: true }),
    periodEnd: timestamp("period_end", { withTimezone: true }),
    /** The figures, top lists, samples and limitations once finished. */
    result: jsonb("result"),
    error: text("error"),
    createdBy: text("created_by"),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("impact_previews_tenant_key_idx").on(t.tenantId, t.cacheKey),
    index("impact_previews_tenant_created_idx").on(t.tenantId, t.createdAt),
  ],
);

import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { id, tenantId, timestamps } from "../../db/columns";

export const recommendations = pgTable(
  "recommendations",
  {
    id: id(),
    tenantId: tenantId(),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    provider: text("provider").notNull(),
    policySlugs: text("policy_slugs").array().notNull().default(sql`'{}'::text[]`),
    /** system | manual */
    source: text("source").notNull(),
    /** framework_gap | observed_activity | drift | often_waived | unguarded_scope | manual */
    kind: text("kind").notNull().default("manual"),
    /** Stable identity of a computed finding: a recomputation updates its row, never adds one. */
    findingKey: text("finding_key"),
    /** Suggested scopes: `{ externalId, name, type }` of the tenant's hierarchy. */
    scopes: jsonb("scopes").notNull().default(sql`'[]'::jsonb`),
    /** ALERT | PREVENT */
    mode: text("mode").notNull().default("ALERT"),
    score: integer("score").notNull().default(0),
    affectedResourcesCount: integer("affected_resources_count").notNull().default(0),
    archivedAt: timestamp("archived_at", { withTimezone: true }),
    installedAt: timestamp("installed_at", { withTimezone: true }),
    installedBundleIds: text("installed_bundle_ids").array().notNull().default(sql`'{}'::text[]`),
    createdBy: text("created_by"),
    ...timestamps(),
  },
  (t) => [
    index("recommendations_tenant_idx").on(t.tenantId),
    uniqueIndex("recommendations_tenant_finding_idx").on(t.tenantId, t.findingKey),
  ],
);

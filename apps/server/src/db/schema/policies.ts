import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { id, tenantId, timestamps } from "./columns";

/**
 * Policy definitions a tenant wrote or upgraded. The built-in catalogue lives in
 * packages/policy-engine and is not copied here; a row with a catalogue slug overrides it
 * for that tenant.
 */
export const policyDefinitions = pgTable(
  "policy_definitions",
  {
    id: id(),
    tenantId: tenantId(),
    slug: text("slug").notNull(),
    enforcer: text("enforcer").notNull(),
    displayName: text("display_name").notNull(),
    /** The whole definition in the catalogue's format. */
    definition: jsonb("definition").notNull(),
    isVisible: boolean("is_visible").notNull().default(true),
    deprecatedAt: timestamp("deprecated_at", { withTimezone: true }),
    createdBy: text("created_by"),
    ...timestamps(),
  },
  (t) => [
    index("policy_definitions_tenant_idx").on(t.tenantId),
    uniqueIndex("policy_definitions_tenant_slug_idx").on(t.tenantId, t.slug),
  ],
);

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

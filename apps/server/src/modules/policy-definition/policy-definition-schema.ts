import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { id, tenantId, timestamps } from "../../db/columns";

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

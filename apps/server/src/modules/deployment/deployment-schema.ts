import { sql } from "drizzle-orm";
import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { id, tenantId, timestamps } from "../../db/columns";

/** Where an object applied from a file comes from: its path in the repository and the commit. */
export interface ManagedBy {
  path: string;
  commit: string;
}

/** A policy deployed with one set of parameters and one mode to a list of scopes. */
export const bundles = pgTable(
  "bundles",
  {
    id: id(),
    tenantId: tenantId(),
    /** 7-character policy key, unique across tenants (the public waiver page has no tenant). */
    key: text("key").notNull(),
    name: text("name").notNull(),
    policySlug: text("policy_slug").notNull(),
    provider: text("provider").notNull(),
    mode: text("mode").notNull(),
    status: text("status").notNull().default("PENDING"),
    /** While PROPAGATING: when the last of its deployments is expected to be enforced. */
    propagationEndsAt: timestamp("propagation_ends_at", { withTimezone: true }),
    errorCodes: text("error_codes").array().notNull().default(sql`'{}'::text[]`),
    scopes: jsonb("scopes").notNull().default(sql`'[]'::jsonb`),
    excludedScopes: jsonb("excluded_scopes").notNull().default(sql`'[]'::jsonb`),
    parameters: jsonb("parameters").notNull().default(sql`'{}'::jsonb`),
    feedbackMessage: text("feedback_message").notNull().default(""),
    affectedResourceTypes: text("affected_resource_types").array().notNull().default(sql`'{}'::text[]`),
    mainResourceType: text("main_resource_type").notNull().default(""),
    isVisible: boolean("is_visible").notNull().default(true),
    namespace: text("namespace"),
    waiverApprovalMode: text("waiver_approval_mode").notNull().default("AUTO"),
    /** Applied from a file ({ path, commit }); null for a bundle made by hand. */
    managedBy: jsonb("managed_by").$type<ManagedBy>(),
    createdBy: text("created_by").notNull(),
    editedBy: text("edited_by"),
    editedAt: timestamp("edited_at", { withTimezone: true }),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    ...timestamps(),
  },
  (t) => [index("bundles_tenant_idx").on(t.tenantId), uniqueIndex("bundles_key_idx").on(t.key)],
);

/** One bundle expanded to one target scope. */
export const deployments = pgTable(
  "deployments",
  {
    id: id(),
    tenantId: tenantId(),
    bundleId: text("bundle_id")
      .notNull()
      .references(() => bundles.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    connectorId: text("connector_id"),
    scope: jsonb("scope").notNull(),
    scopeExternalId: text("scope_external_id").notNull(),
    mode: text("mode").notNull(),
    status: text("status").notNull().default("PENDING"),
    errorCode: text("error_code"),
    errorMessage: text("error_message"),
    parameters: jsonb("parameters").notNull().default(sql`'{}'::jsonb`),
    policySlug: text("policy_slug").notNull(),
    name: text("name").notNull(),
    isVisible: boolean("is_visible").notNull().default(true),
    /** Identifier of the native document in the cloud (SCP id, assignment id). */
    nativeId: text("native_id"),
    nativeDocumentHash: text("native_document_hash"),
    /** While PROPAGATING: when the cloud is expected to enforce what was written (Azure). */
    propagationEndsAt: timestamp("propagation_ends_at", { withTimezone: true }),
    createdBy: text("created_by").notNull(),
    ...timestamps(),
  },
  (t) => [
    index("deployments_tenant_idx").on(t.tenantId),
    index("deployments_bundle_idx").on(t.bundleId),
    index("deployments_key_idx").on(t.key),
  ],
);

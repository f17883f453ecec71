import { sql } from "drizzle-orm";
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { id, tenantId, timestamps } from "../../db/columns";

/** What a policy prevented, alerted on, waived or found drifting, as read from the cloud. */
export const policyEvents = pgTable(
  "policy_events",
  {
    id: id(),
    tenantId: tenantId(),
    /** The provider's own event id: ingest is idempotent on it. */
    providerEventId: text("provider_event_id").notNull(),
    type: text("type").notNull(),
    cloudProvider: text("cloud_provider").notNull(),
    deploymentId: text("deployment_id"),
    bundleId: text("bundle_id"),
    deploymentName: text("deployment_name"),
    namespace: text("namespace"),
    resourceExternalId: text("resource_external_id"),
    resourceNativeType: text("resource_native_type"),
    resourceScope: text("resource_scope"),
    resourceName: text("resource_name"),
    resourceCreatedAt: timestamp("resource_created_at", { withTimezone: true }),
    resourceLink: text("resource_link"),
    userIdentifier: text("user_identifier"),
    userName: text("user_name"),
    sourceAppIdentifier: text("source_app_identifier"),
    sourceAppName: text("source_app_name"),
    userType: text("user_type"),
    archived: boolean("archived").notNull().default(false),
    isDismissed: boolean("is_dismissed").notNull().default(false),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull(),
    audits: jsonb("audits").notNull().default(sql`'[]'::jsonb`),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("policy_events_provider_event_idx").on(t.tenantId, t.providerEventId),
    // Keyset pagination walks (occurred_at, id); the type variant serves the /events type filter.
    index("policy_events_tenant_occurred_idx").on(t.tenantId, t.occurredAt, t.id),
    index("policy_events_tenant_type_occurred_idx").on(t.tenantId, t.type, t.occurredAt, t.id),
    // The /events filters that narrow the most, each walkable in (occurred_at, id) order.
    index("policy_events_bundle_idx").on(t.tenantId, t.bundleId, t.occurredAt, t.id),
    index("policy_events_policy_name_idx").on(t.tenantId, t.deploymentName, t.occurredAt, t.id),
    index("policy_events_resource_type_idx").on(t.tenantId, t.resourceNativeType, t.occurredAt, t.id),
    // The user filter walks each listed user's events newest first, by identifier and by name.
    index("policy_events_user_identifier_idx").on(t.tenantId, t.userIdentifier, t.occurredAt),
    index("policy_events_user_name_idx").on(t.tenantId, t.userName, t.occurredAt),
    index("policy_events_scope_idx").on(t.tenantId, sql`lower(${t.resourceScope})`),
    // A resource's events newest first: the resource-name search walks it per matching resource.
    index("policy_events_resource_time_idx").on(t.tenantId, t.resourceExternalId, t.occurredAt, t.id),
  ],
);

/**
 * How many events a tenant has per UTC day and per value of each column the summaries filter or
 * group by that has few values (bundle, policy name, provider, resource type, kind, dismissed,
 * archived); '' stands for none. The summaries add these up instead of counting every event.
 * Every statement that inserts, deletes, dismisses or re-types events changes them with it
 * (event-day-counts.ts), so they always agree with policy_events.
 */
export const eventDayCounts = pgTable(
  "event_day_counts",
  {
    tenantId: tenantId(),
    day: date("day", { mode: "string" }).notNull(),
    bundleId: text("bundle_id").notNull(),
    deploymentName: text("deployment_name").notNull(),
    cloudProvider: text("cloud_provider").notNull(),
    resourceNativeType: text("resource_native_type").notNull(),
    type: text("type").notNull(),
    isDismissed: boolean("is_dismissed").notNull(),
    archived: boolean("archived").notNull(),
    events: integer("events").notNull(),
  },
  (t) => [
    primaryKey({
      name: "event_day_counts_pkey",
      columns: [
        t.tenantId,
        t.day,
        t.bundleId,
        t.deploymentName,
        t.cloudProvider,
        t.resourceNativeType,
        t.type,
        t.isDismissed,
        t.archived,
      ],
    }),
  ],
);

/** Events aggregated per resource and deployment. */
export const resourceEvents = pgTable(
  "resource_events",
  {
    id: id(),
    tenantId: tenantId(),
    deploymentId: text("deployment_id"),
    bundleId: text("bundle_id"),
    resourceExternalId: text("resource_external_id").notNull(),
    resourceName: text("resource_name"),
    resourceNativeType: text("resource_native_type"),
    type: text("type").notNull(),
    /** The newest event of this resource and deployment, shown as the resource event. */
    lastEventId: text("last_event_id"),
    lastOccurredAt: timestamp("last_occurred_at", { withTimezone: true }).notNull(),
    isDismissed: boolean("is_dismissed").notNull().default(false),
    ...timestamps(),
  },
  (t) => [
    index("resource_events_tenant_idx").on(t.tenantId, t.lastOccurredAt, t.id),
    uniqueIndex("resource_events_resource_idx").on(t.tenantId, t.deploymentId, t.resourceExternalId),
    // The resource-name search ("contains") finds resources here, a row per resource instead of
    // per event; the expression is resourceSearchText in event-repository.ts.
    index("resource_events_search_idx").using(
      "gin",
      sql`(coalesce(${t.resourceName}, '') || E'\n' || coalesce(${t.resourceExternalId}, '')) gin_trgm_ops`,
    ),
  ],
);

/**
 * What the cloud last said about a resource under a deployment on a given day (Azure policy
 * states): the compliance trend of a bundle is counted from it.
 */
export const complianceObservations = pgTable(
  "compliance_observations",
  {
    id: id(),
    tenantId: tenantId(),
    bundleId: text("bundle_id").notNull(),
    deploymentId: text("deployment_id").notNull(),
    resourceExternalId: text("resource_external_id").notNull(),
    /** UTC day (YYYY-MM-DD) of the observation. */
    day: text("day").notNull(),
    compliant: boolean("compliant").notNull(),
    observedAt: timestamp("observed_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("compliance_observations_day_idx").on(t.deploymentId, t.resourceExternalId, t.day),
    index("compliance_observations_bundle_idx").on(t.tenantId, t.bundleId, t.day),
  ],
);

/**
 * Who acted in a tenant's events, one row per identity with what its newest event said: the
 * user picker lists and searches these instead of every event.
 */
export const eventPrincipals = pgTable(
  "event_principals",
  {
    tenantId: tenantId(),
    /** The event's user identifier, '' when the event had none. */
    userIdentifier: text("user_identifier").notNull(),
    userName: text("user_name"),
    sourceAppIdentifier: text("source_app_identifier"),
    sourceAppName: text("source_app_name"),
    userType: text("user_type"),
    lastOccurredAt: timestamp("last_occurred_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.userIdentifier] }),
    // Substring search ("contains"); pg_trgm comes from the event-search-trigram migration.
    index("event_principals_search_idx").using(
      "gin",
      sql`(${t.userIdentifier} || E'\\n' || coalesce(${t.userName}, '')) gin_trgm_ops`,
    ),
  ],
);

import { sql } from "drizzle-orm";
import type { Database } from "../../db/database";
import { addToDayCounts, DAY_COUNT_COLUMNS, dayCountChanges } from "./event-day-counts";
import { rowsOf } from "./event-repository";
import type { NewPolicyEvent } from "./policy-event";

/**
 * Inserts events whose provider id is not stored yet and, in the same statement, counts them in
 * their days and moves each touched resource event and identity to its newest new event. Returns how
 * many events were new. The caller removes duplicates within the batch first.
 */
export async function insertNewEvents(db: Database, unique: NewPolicyEvent[]): Promise<number> {
  if (unique.length === 0) return 0;
  // One array parameter per column, unnested into rows: a fixed 21 bind parameters whatever the
  // batch size, and no per-row JSON to build and take apart.
  const column = <T>(pick: (e: NewPolicyEvent) => T) => sql.param(unique.map(pick));
  const result = await db.execute(sql`
  with inserted as (
    insert into policy_events (tenant_id, provider_event_id, type, cloud_provider, deployment_id, bundle_id,
      deployment_name, namespace, resource_external_id, resource_native_type, resource_scope, resource_name,
      resource_created_at, resource_link, user_identifier, user_name, source_app_identifier, source_app_name,
      user_type, occurred_at, audits)
    select tenant_id, provider_event_id, type, cloud_provider, deployment_id, bundle_id, deployment_name,
      namespace, resource_external_id, resource_native_type, resource_scope, resource_name, resource_created_at,
      resource_link, user_identifier, user_name, source_app_identifier, source_app_name, user_type, occurred_at,
      audits::jsonb
    from unnest(
      ${column((e) => e.tenantId)}::text[], ${column((e) => e.providerEventId)}::text[],
      ${column((e) => e.type)}::text[], ${column((e) => e.cloudProvider)}::text[],
      ${column((e) => e.deploymentId ?? null)}::text[], ${column((e) => e.bundleId ?? null)}::text[],
      ${column((e) => e.deploymentName ?? null)}::text[], ${column((e) => e.namespace ?? null)}::text[],
      ${column((e) => e.resourceExternalId ?? null)}::text[], ${column((e) => e.resourceNativeType ?? null)}::text[],
      ${column((e) => e.resourceScope ?? null)}::text[], ${column((e) => e.resourceName ?? null)}::text[],
      ${column((e) => e.resourceCreatedAt?.toISOString() ?? null)}::timestamptz[],
      ${column((e) => e.resourceLink ?? null)}::text[], ${column((e) => e.userIdentifier ?? null)}::text[],
      ${column((e) => e.userName ?? null)}::text[], ${column((e) => e.sourceAppIdentifier ?? null)}::text[],
      ${column((e) => e.sourceAppName ?? null)}::text[], ${column((e) => e.userType ?? null)}::text[],
      ${column((e) => e.occurredAt.toISOString())}::timestamptz[],
      ${column((e) => JSON.stringify(e.audits ?? []))}::text[]
    ) as x(tenant_id, provider_event_id, type, cloud_provider, deployment_id, bundle_id, deployment_name,
      namespace, resource_external_id, resource_native_type, resource_scope, resource_name, resource_created_at,
      resource_link, user_identifier, user_name, source_app_identifier, source_app_name, user_type, occurred_at,
      audits)
    on conflict (tenant_id, provider_event_id) do nothing
    returning id, ${DAY_COUNT_COLUMNS}, deployment_id, resource_external_id, resource_name, user_identifier,
      user_name, source_app_identifier, source_app_name, user_type)
  -- Only the rows inserted are counted: a repeated event changes no count.
  , counted as (${addToDayCounts(dayCountChanges("inserted", 1))})
  -- One row per (resource, deployment) points at its newest event; the dismissed flag is the
  -- user's and survives new events. Rows in key order: two writers lock them in the same order.
  , resources as (
    insert into resource_events (tenant_id, deployment_id, bundle_id, resource_external_id, resource_name,
      resource_native_type, type, last_event_id, last_occurred_at)
    select distinct on (tenant_id, deployment_id, resource_external_id) tenant_id, deployment_id, bundle_id,
      resource_external_id, resource_name, resource_native_type, type, id, occurred_at
    from inserted where deployment_id is not null and resource_external_id is not null
    order by tenant_id, deployment_id, resource_external_id, occurred_at desc
    on conflict (tenant_id, deployment_id, resource_external_id) do update set
      type = excluded.type,
      last_event_id = excluded.last_event_id,
      last_occurred_at = excluded.last_occurred_at,
      resource_name = coalesce(excluded.resource_name, resource_events.resource_name),
      resource_native_type = coalesce(excluded.resource_native_type, resource_events.resource_native_type),
      updated_at = now()
    -- An older event arriving late does not replace the newer one.
    where resource_events.last_occurred_at <= excluded.last_occurred_at)
  -- One row per identity, with what its newest event said.
  , principals as (
    insert into event_principals (tenant_id, user_identifier, user_name, source_app_identifier, source_app_name,
      user_type, last_occurred_at)
    select distinct on (tenant_id, coalesce(user_identifier, '')) tenant_id, coalesce(user_identifier, ''),
      user_name, source_app_identifier, source_app_name, user_type, occurred_at
    from inserted
    order by tenant_id, coalesce(user_identifier, ''), occurred_at desc
    on conflict (tenant_id, user_identifier) do update set
      user_name = excluded.user_name,
      source_app_identifier = excluded.source_app_identifier,
      source_app_name = excluded.source_app_name,
      user_type = excluded.user_type,
      last_occurred_at = excluded.last_occurred_at
    where event_principals.last_occurred_at < excluded.last_occurred_at)
  select count(*)::int as n from inserted`);
  return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
}

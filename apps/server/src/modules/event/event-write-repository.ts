import { sql } from "drizzle-orm";
import type { Database } from "../../db/database";
import type { NewPolicyEvent } from "./policy-event";

/**
 * Inserts events whose provider id is not stored yet and returns the rows it inserted. The
 * caller removes duplicates within the batch first.
 */
export async function insertNewEvents(db: Database, unique: NewPolicyEvent[]): Promise<InsertedEvent[]> {
  if (unique.length === 0) return [];
  // One array parameter per column, unnested into rows: a fixed 21 bind parameters whatever the
  // batch size, and no per-row JSON to build and take apart.
  const column = <T>(pick: (e: NewPolicyEvent) => T) => sql.param(unique.map(pick));
  const result = await db.execute(sql`
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
  returning id, tenant_id, deployment_id, bundle_id, resource_external_id, resource_name, resource_native_type,
    type, occurred_at, user_identifier, user_name, source_app_identifier, source_app_name, user_type`);
  const rows = (result as unknown as { rows: RawInserted[] }).rows.map(
    (r): InsertedEvent => ({
      id: r.id,
      tenantId: r.tenant_id,
      deploymentId: r.deployment_id,
      bundleId: r.bundle_id,
      resourceExternalId: r.resource_external_id,
      resourceName: r.resource_name,
      resourceNativeType: r.resource_native_type,
      type: r.type,
      occurredAt: r.occurred_at instanceof Date ? r.occurred_at : new Date(r.occurred_at),
      userIdentifier: r.user_identifier,
      userName: r.user_name,
      sourceAppIdentifier: r.source_app_identifier,
      sourceAppName: r.source_app_name,
      userType: r.user_type,
    }),
  );
  return rows;
}

interface RawInserted {
  id: string;
  tenant_id: string;
  deployment_id: string | null;
  bundle_id: string | null;
  resource_external_id: string | null;
  resource_name: string | null;
  resource_native_type: string | null;
  type: string;
  occurred_at: Date | string;
  user_identifier: string | null;
  user_name: string | null;
  source_app_identifier: string | null;
  source_app_name: string | null;
  user_type: string | null;
}

export interface InsertedEvent {
  id: string;
  tenantId: string;
  deploymentId: string | null;
  bundleId: string | null;
  resourceExternalId: string | null;
  resourceName: string | null;
  resourceNativeType: string | null;
  type: string;
  occurredAt: Date;
  userIdentifier: string | null;
  userName: string | null;
  sourceAppIdentifier: string | null;
  sourceAppName: string | null;
  userType: string | null;
}

/**
 * Keeps one row per (resource, deployment) pointing at its newest event. The dismissed flag is
 * the user's and survives new events.
 */
export async function touchResourceEvents(db: Database, rows: InsertedEvent[]): Promise<void> {
  const newest = new Map<string, InsertedEvent>();
  for (const row of rows) {
    if (!row.deploymentId || !row.resourceExternalId) continue;
    const key = `${row.tenantId}\u0000${row.deploymentId}\u0000${row.resourceExternalId}`;
    const seen = newest.get(key);
    if (!seen || seen.occurredAt.getTime() <= row.occurredAt.getTime()) newest.set(key, row);
  }
  if (newest.size === 0) return;
  const payload = JSON.stringify(
    [...newest.values()].map((row) => ({
      tenant_id: row.tenantId,
      deployment_id: row.deploymentId,
      bundle_id: row.bundleId,
      resource_external_id: row.resourceExternalId,
      resource_name: row.resourceName,
      resource_native_type: row.resourceNativeType,
      type: row.type,
      last_event_id: row.id,
      last_occurred_at: row.occurredAt.toISOString(),
    })),
  );
  await db.execute(sql`
    insert into resource_events (tenant_id, deployment_id, bundle_id, resource_external_id, resource_name,
      resource_native_type, type, last_event_id, last_occurred_at)
    select * from jsonb_to_recordset(${payload}::jsonb) as x(tenant_id text, deployment_id text, bundle_id text,
      resource_external_id text, resource_name text, resource_native_type text, type text, last_event_id text,
      last_occurred_at timestamptz)
    on conflict (tenant_id, deployment_id, resource_external_id) do update set
      type = excluded.type,
      last_event_id = excluded.last_event_id,
      last_occurred_at = excluded.last_occurred_at,
      resource_name = coalesce(excluded.resource_name, resource_events.resource_name),
      resource_native_type = coalesce(excluded.resource_native_type, resource_events.resource_native_type),
      updated_at = now()
    -- An older event arriving late does not replace the newer one.
    where resource_events.last_occurred_at <= excluded.last_occurred_at`);
}

/** Keeps one row per identity of the new events, with what its newest event said. */
export async function touchPrincipals(db: Database, rows: InsertedEvent[]): Promise<void> {
  const newest = new Map<string, InsertedEvent>();
  for (const row of rows) {
    const key = `${row.tenantId}\u0000${row.userIdentifier ?? ""}`;
    const seen = newest.get(key);
    if (!seen || seen.occurredAt.getTime() <= row.occurredAt.getTime()) newest.set(key, row);
  }
  if (newest.size === 0) return;
  // In key order, so that two writers of one tenant lock the rows in the same order.
  const list = [...newest.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
  const column = <T>(pick: (e: InsertedEvent) => T) => sql.param(list.map(pick));
  await db.execute(sql`
    insert into event_principals (tenant_id, user_identifier, user_name, source_app_identifier, source_app_name,
      user_type, last_occurred_at)
    select * from unnest(${column((r) => r.tenantId)}::text[], ${column((r) => r.userIdentifier ?? "")}::text[],
      ${column((r) => r.userName)}::text[], ${column((r) => r.sourceAppIdentifier)}::text[],
      ${column((r) => r.sourceAppName)}::text[], ${column((r) => r.userType)}::text[],
      ${column((r) => r.occurredAt.toISOString())}::timestamptz[])
    on conflict (tenant_id, user_identifier) do update set
      user_name = excluded.user_name,
      source_app_identifier = excluded.source_app_identifier,
      source_app_name = excluded.source_app_name,
      user_type = excluded.user_type,
      last_occurred_at = excluded.last_occurred_at
    where event_principals.last_occurred_at < excluded.last_occurred_at`);
}

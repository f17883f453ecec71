import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../../db/database";
import { bundles, deployments } from "../../db/schema/deployments";

/** Stored names of the event types (proto `EventType` without its prefix). */
export type EventTypeName =
  | "PREVENTION"
  | "DRIFT"
  | "HISTORICAL_DRIFT"
  | "WAIVED"
  | "MISSING"
  | "RESOLVED"
  | "DISMISSED"
  | "ALERT";

export type EventProviderName = "AWS" | "AZURE" | "UNSPECIFIED";

/** One provider record behind an event, as kept in `policy_events.audits`. */
export interface StoredAudit {
  id: string;
  action: string;
  eventTime: string;
  raw: unknown;
}

/** An event ready to be written; `providerEventId` makes the write idempotent. */
export interface NewPolicyEvent {
  tenantId: string;
  providerEventId: string;
  type: EventTypeName;
  cloudProvider: EventProviderName;
  deploymentId?: string | null;
  bundleId?: string | null;
  deploymentName?: string | null;
  namespace?: string | null;
  resourceExternalId?: string | null;
  resourceNativeType?: string | null;
  resourceScope?: string | null;
  resourceName?: string | null;
  resourceCreatedAt?: Date | null;
  resourceLink?: string | null;
  userIdentifier?: string | null;
  userName?: string | null;
  sourceAppIdentifier?: string | null;
  sourceAppName?: string | null;
  userType?: "USER" | "APPLICATION" | null;
  occurredAt: Date;
  audits?: StoredAudit[];
}

/** Rows per INSERT statement. */
const BATCH = 5000;

/**
 * Writes events idempotently (a provider event id already stored is skipped) in multi-row
 * batches, then moves each touched resource event to its newest event. Returns how many events
 * were new. Run inside a transaction when the caller advances a cursor after it.
 */
export async function writeEvents(db: Database, events: NewPolicyEvent[]): Promise<number> {
  let inserted = 0;
  for (let start = 0; start < events.length; start += BATCH) {
    const chunk = events.slice(start, start + BATCH);
    // Two records of one batch may carry the same provider id; the first one wins.
    const unique = [...new Map(chunk.map((e) => [`${e.tenantId}\u0000${e.providerEventId}`, e])).values()];
    // One JSON parameter for the whole batch: thousands of bind parameters cost more to build
    // and parse than PostgreSQL takes to read the rows back out of JSON.
    const payload = JSON.stringify(
      unique.map((e) => ({
        tenant_id: e.tenantId,
        provider_event_id: e.providerEventId,
        type: e.type,
        cloud_provider: e.cloudProvider,
        deployment_id: e.deploymentId ?? null,
        bundle_id: e.bundleId ?? null,
        deployment_name: e.deploymentName ?? null,
        namespace: e.namespace ?? null,
        resource_external_id: e.resourceExternalId ?? null,
        resource_native_type: e.resourceNativeType ?? null,
        resource_scope: e.resourceScope ?? null,
        resource_name: e.resourceName ?? null,
        resource_created_at: e.resourceCreatedAt?.toISOString() ?? null,
        resource_link: e.resourceLink ?? null,
        user_identifier: e.userIdentifier ?? null,
        user_name: e.userName ?? null,
        source_app_identifier: e.sourceAppIdentifier ?? null,
        source_app_name: e.sourceAppName ?? null,
        user_type: e.userType ?? null,
        occurred_at: e.occurredAt.toISOString(),
        audits: e.audits ?? [],
      })),
    );
    const result = await db.execute(sql`
      insert into policy_events (tenant_id, provider_event_id, type, cloud_provider, deployment_id, bundle_id,
        deployment_name, namespace, resource_external_id, resource_native_type, resource_scope, resource_name,
        resource_created_at, resource_link, user_identifier, user_name, source_app_identifier, source_app_name,
        user_type, occurred_at, audits)
      select tenant_id, provider_event_id, type, cloud_provider, deployment_id, bundle_id, deployment_name,
        namespace, resource_external_id, resource_native_type, resource_scope, resource_name, resource_created_at,
        resource_link, user_identifier, user_name, source_app_identifier, source_app_name, user_type, occurred_at,
        coalesce(audits, '[]'::jsonb)
      from jsonb_to_recordset(${payload}::jsonb) as x(tenant_id text, provider_event_id text, type text,
        cloud_provider text, deployment_id text, bundle_id text, deployment_name text, namespace text,
        resource_external_id text, resource_native_type text, resource_scope text, resource_name text,
        resource_created_at timestamptz, resource_link text, user_identifier text, user_name text,
        source_app_identifier text, source_app_name text, user_type text, occurred_at timestamptz, audits jsonb)
      on conflict (tenant_id, provider_event_id) do nothing
      returning id, tenant_id, deployment_id, bundle_id, resource_external_id, resource_name, resource_native_type,
        type, occurred_at`);
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
      }),
    );
    inserted += rows.length;
    await touchResourceEvents(db, rows);
  }
  return inserted;
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
}

interface InsertedEvent {
  id: string;
  tenantId: string;
  deploymentId: string | null;
  bundleId: string | null;
  resourceExternalId: string | null;
  resourceName: string | null;
  resourceNativeType: string | null;
  type: string;
  occurredAt: Date;
}

/**
 * Keeps one row per (resource, deployment) pointing at its newest event. The dismissed flag is
 * the user's and survives new events.
 */
async function touchResourceEvents(db: Database, rows: InsertedEvent[]): Promise<void> {
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

/**
 * Records that a deployment's native document (SCP, assignment) was found missing from the
 * cloud. One event per deployment and detection time; re-running the same reconcile is a no-op.
 */
export async function recordMissingDeployment(
  db: Database,
  input: {
    tenantId: string;
    deploymentId: string;
    /** When reconcile found it missing; events of one reconcile run share it. */
    detectedAt?: Date;
    /** The native id that was looked for (SCP id, assignment id). */
    nativeId?: string | null;
    /** Why it counts as missing, e.g. "SCP p-abc123 not found". */
    reason?: string;
  },
): Promise<{ recorded: boolean }> {
  const [row] = await db
    .select({
      deploymentId: deployments.id,
      bundleId: deployments.bundleId,
      name: bundles.name,
      namespace: bundles.namespace,
      provider: bundles.provider,
      scopeExternalId: deployments.scopeExternalId,
      nativeId: deployments.nativeId,
    })
    .from(deployments)
    .innerJoin(bundles, eq(bundles.id, deployments.bundleId))
    .where(and(eq(deployments.tenantId, input.tenantId), eq(deployments.id, input.deploymentId)))
    .limit(1);
  if (!row) return { recorded: false };
  const detectedAt = input.detectedAt ?? new Date();
  const nativeId = input.nativeId ?? row.nativeId ?? "";
  const count = await writeEvents(db, [
    {
      tenantId: input.tenantId,
      providerEventId: `missing:${row.deploymentId}:${detectedAt.toISOString()}`,
      type: "MISSING",
      cloudProvider: providerName(row.provider),
      deploymentId: row.deploymentId,
      bundleId: row.bundleId,
      deploymentName: row.name,
      namespace: row.namespace,
      resourceExternalId: nativeId || row.scopeExternalId,
      resourceNativeType:
        providerName(row.provider) === "AWS"
          ? "AWS::Organizations::Policy"
          : "Microsoft.Authorization/policyAssignments",
      resourceScope: row.scopeExternalId,
      resourceName: nativeId || row.name,
      userName: "Palisade",
      userType: "APPLICATION",
      occurredAt: detectedAt,
      audits: [
        {
          id: `missing:${row.deploymentId}`,
          action: "palisade:Reconcile",
          eventTime: detectedAt.toISOString(),
          raw: { reason: input.reason ?? "The deployment was not found in the cloud.", nativeId },
        },
      ],
    },
  ]);
  return { recorded: count > 0 };
}

/** `bundles.provider` holds "aws"/"azure" or the enum names; events store the enum names. */
export function providerName(provider: string | null | undefined): EventProviderName {
  const p = (provider ?? "").toLowerCase();
  if (p.includes("aws")) return "AWS";
  if (p.includes("azure")) return "AZURE";
  return "UNSPECIFIED";
}

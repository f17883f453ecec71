import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../../db/database";
import { bundles, deployments } from "../../db/schema/deployments";
import { policyEvents, resourceEvents } from "../../db/schema/events";

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

/** Rows per INSERT: well under PostgreSQL's 65,535 bind parameters at 25 columns a row. */
const BATCH = 1000;

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
    const rows = await db
      .insert(policyEvents)
      .values(
        unique.map((e) => ({
          tenantId: e.tenantId,
          providerEventId: e.providerEventId,
          type: e.type,
          cloudProvider: e.cloudProvider,
          deploymentId: e.deploymentId ?? null,
          bundleId: e.bundleId ?? null,
          deploymentName: e.deploymentName ?? null,
          namespace: e.namespace ?? null,
          resourceExternalId: e.resourceExternalId ?? null,
          resourceNativeType: e.resourceNativeType ?? null,
          resourceScope: e.resourceScope ?? null,
          resourceName: e.resourceName ?? null,
          resourceCreatedAt: e.resourceCreatedAt ?? null,
          resourceLink: e.resourceLink ?? null,
          userIdentifier: e.userIdentifier ?? null,
          userName: e.userName ?? null,
          sourceAppIdentifier: e.sourceAppIdentifier ?? null,
          sourceAppName: e.sourceAppName ?? null,
          userType: e.userType ?? null,
          occurredAt: e.occurredAt,
          audits: e.audits ?? [],
        })),
      )
      .onConflictDoNothing({ target: [policyEvents.tenantId, policyEvents.providerEventId] })
      .returning({
        id: policyEvents.id,
        tenantId: policyEvents.tenantId,
        deploymentId: policyEvents.deploymentId,
        bundleId: policyEvents.bundleId,
        resourceExternalId: policyEvents.resourceExternalId,
        resourceName: policyEvents.resourceName,
        resourceNativeType: policyEvents.resourceNativeType,
        type: policyEvents.type,
        occurredAt: policyEvents.occurredAt,
      });
    inserted += rows.length;
    await touchResourceEvents(db, rows);
  }
  return inserted;
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
  await db
    .insert(resourceEvents)
    .values(
      [...newest.values()].map((row) => ({
        tenantId: row.tenantId,
        deploymentId: row.deploymentId,
        bundleId: row.bundleId,
        resourceExternalId: row.resourceExternalId as string,
        resourceName: row.resourceName,
        resourceNativeType: row.resourceNativeType,
        type: row.type,
        lastEventId: row.id,
        lastOccurredAt: row.occurredAt,
      })),
    )
    .onConflictDoUpdate({
      target: [resourceEvents.tenantId, resourceEvents.deploymentId, resourceEvents.resourceExternalId],
      set: {
        type: sql`excluded.type`,
        lastEventId: sql`excluded.last_event_id`,
        lastOccurredAt: sql`excluded.last_occurred_at`,
        resourceName: sql`coalesce(excluded.resource_name, ${resourceEvents.resourceName})`,
        resourceNativeType: sql`coalesce(excluded.resource_native_type, ${resourceEvents.resourceNativeType})`,
        updatedAt: sql`now()`,
      },
      // An older event arriving late does not replace the newer one.
      setWhere: sql`${resourceEvents.lastOccurredAt} <= excluded.last_occurred_at`,
    });
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

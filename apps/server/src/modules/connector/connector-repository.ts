import { and, asc, count, desc, eq, inArray, notInArray, sql } from "drizzle-orm";
import type { HierarchyEntry, ProviderName } from "../../cloud/cloud-provider";
import type { Database } from "../../db/database";
import type { PageWindow } from "../../db/page-window";
import { deployments } from "../deployment/deployment-schema";
import { connectors, hierarchyNodes } from "./connector-schema";
import type { StoredPolicyLimits } from "./policy-quotas";

export type ConnectorKind = "aws" | "azure" | "sandbox";
export type ConnectorStatusName = "NEVER_SYNCED" | "SYNCING" | "CONNECTED" | "ERROR";

/** Non-secret settings kept in `connectors.config`. Every kind records the provider it speaks. */
export type StoredConfig =
  | {
      provider: "aws";
      managementAccountId: string;
      roleArn: string;
      externalId: string;
      region: string;
      /** The organisation's quotas per policy type where AWS raised them; absent ones are AWS's defaults. */
      policyLimits?: StoredPolicyLimits;
      /** Older connectors: the SCP quotas, read as the SCP entry of `policyLimits`. */
      scpLimits?: { characters?: number; perTarget?: number };
      /** Absent: events come from LookupEvents in the management account only. */
      trail?: OrganizationTrailSettings;
    }
  | {
      provider: "azure";
      tenantId: string;
      clientId: string;
      credentialType: "CLIENT_SECRET" | "CERTIFICATE";
      certificateThumbprint: string;
    }
  | { provider: ProviderName };

/** Where an AWS organisation's CloudTrail delivers its log files, and the role that reads them. */

/** The cloud a connector row reaches, whether the sandbox's or a real one. */
export const connectorProvider = (row: { config: unknown }): StoredConfig["provider"] =>
  (row.config as StoredConfig).provider;

export interface OrganizationTrailSettings {
  bucket: string;
  /** The trail's key prefix without a trailing slash; empty when it has none. */
  keyPrefix: string;
  bucketRegion: string;
  readerRoleArn: string;
  /** Empty when the reader role's trust policy requires none. */
  readerExternalId: string;
  backfillDays: number;
}

export type ConnectorRow = typeof connectors.$inferSelect;
export type HierarchyNodeRow = typeof hierarchyNodes.$inferSelect;

export async function insertConnector(
  db: Database,
  row: typeof connectors.$inferInsert,
): Promise<ConnectorRow> {
  const [inserted] = await db.insert(connectors).values(row).returning();
  if (!inserted) throw new Error("connector insert returned nothing");
  return inserted;
}

/** A connector of this tenant; another tenant's id finds nothing. */
export async function findConnector(
  db: Database,
  tenantId: string,
  id: string,
): Promise<ConnectorRow | undefined> {
  const [row] = await db
    .select()
    .from(connectors)
    .where(and(eq(connectors.tenantId, tenantId), eq(connectors.id, id)));
  return row;
}

export async function listConnectors(
  db: Database,
  tenantId: string,
  window: PageWindow,
  provider: ProviderName | undefined,
): Promise<{ rows: ConnectorRow[]; total: number }> {
  const where = and(
    eq(connectors.tenantId, tenantId),
    provider ? sql`${connectors.config}->>'provider' = ${provider}` : undefined,
  );
  const rows = await db
    .select()
    .from(connectors)
    .where(where)
    .orderBy(window.descending ? desc(connectors.createdAt) : asc(connectors.createdAt), asc(connectors.id))
    .limit(window.limit)
    .offset(window.offset);
  const [total] = await db.select({ n: count() }).from(connectors).where(where);
  return { rows, total: total?.n ?? 0 };
}

export async function countTenantConnectors(db: Database, tenantId: string): Promise<number> {
  const [total] = await db.select({ n: count() }).from(connectors).where(eq(connectors.tenantId, tenantId));
  return total?.n ?? 0;
}

export async function updateConnector(
  db: Database,
  tenantId: string,
  id: string,
  patch: Partial<
    Pick<
      ConnectorRow,
      "name" | "config" | "secretCiphertext" | "status" | "lastSyncAt" | "lastError" | "eventsError"
    >
  >,
): Promise<ConnectorRow | undefined> {
  const [row] = await db
    .update(connectors)
    .set(patch)
    .where(and(eq(connectors.tenantId, tenantId), eq(connectors.id, id)))
    .returning();
  return row;
}

export async function deleteConnector(db: Database, tenantId: string, id: string): Promise<boolean> {
  const deleted = await db
    .delete(connectors)
    .where(and(eq(connectors.tenantId, tenantId), eq(connectors.id, id)))
    .returning({ id: connectors.id });
  return deleted.length > 0;
}

/** Deployments still placed in the cloud through the connector. */
export async function countActiveDeployments(
  db: Database,
  tenantId: string,
  connectorId: string,
): Promise<number> {
  const [total] = await db
    .select({ n: count() })
    .from(deployments)
    .where(
      and(
        eq(deployments.tenantId, tenantId),
        eq(deployments.connectorId, connectorId),
        notInArray(deployments.status, ["DELETED"]),
      ),
    );
  return total?.n ?? 0;
}

/**
 * Makes the stored hierarchy of a connector exactly `entries`: upserts by external id (node ids
 * stay stable across syncs) and removes scopes that no longer exist.
 */
export async function replaceHierarchy(
  db: Database,
  tenantId: string,
  connectorId: string,
  provider: ProviderName,
  entries: HierarchyEntry[],
): Promise<void> {
  await db.transaction(async (tx) => {
    const ids = entries.map((e) => e.externalId);
    await tx
      .delete(hierarchyNodes)
      .where(
        and(
          eq(hierarchyNodes.tenantId, tenantId),
          eq(hierarchyNodes.connectorId, connectorId),
          ids.length > 0 ? notInArray(hierarchyNodes.externalId, ids) : undefined,
        ),
      );
    // Statements stay well under the parameter limit.
    for (let i = 0; i < entries.length; i += 500) {
      await tx
        .insert(hierarchyNodes)
        .values(
          entries.slice(i, i + 500).map((e) => ({
            tenantId,
            connectorId,
            provider,
            externalId: e.externalId,
            parentExternalId: e.parentExternalId ?? null,
            name: e.name,
            type: e.type,
            link: e.link || null,
          })),
        )
        .onConflictDoUpdate({
          target: [hierarchyNodes.connectorId, hierarchyNodes.externalId],
          set: {
            parentExternalId: sql`excluded.parent_external_id`,
            name: sql`excluded.name`,
            type: sql`excluded.type`,
            link: sql`excluded.link`,
            provider: sql`excluded.provider`,
            updatedAt: sql`now()`,
          },
        });
    }
  });
}

export async function listHierarchyNodes(
  db: Database,
  tenantId: string,
  filter: { connectorIds?: string[]; provider?: ProviderName },
): Promise<HierarchyNodeRow[]> {
  return db
    .select()
    .from(hierarchyNodes)
    .where(
      and(
        eq(hierarchyNodes.tenantId, tenantId),
        filter.connectorIds ? inArray(hierarchyNodes.connectorId, filter.connectorIds) : undefined,
        filter.provider ? eq(hierarchyNodes.provider, filter.provider) : undefined,
      ),
    )
    .orderBy(asc(hierarchyNodes.name), asc(hierarchyNodes.id));
}

/** Moves the connector's audit-stream cursor; run in the transaction that wrote the events. */
export async function saveEventCursor(
  db: Database,
  tenantId: string,
  connectorId: string,
  cursor: string | null,
  fetchedAt: Date,
): Promise<void> {
  await db
    .update(connectors)
    .set({ eventCursor: cursor, eventsFetchedAt: fetchedAt })
    .where(and(eq(connectors.tenantId, tenantId), eq(connectors.id, connectorId)));
}

/** The reads of an event fetch, by the name a user knows them by. */
export const READ_NAMES = { activityLog: "Activity Log", compliance: "Policy states" } as const;
export type ReadFailures = ConnectorRow["readFailures"];

/** The reads of the last event fetch that failed, with their reasons (none clears them). */
export async function saveReadFailures(
  db: Database,
  tenantId: string,
  connectorId: string,
  failures: ReadFailures,
): Promise<void> {
  await db
    .update(connectors)
    .set({ readFailures: failures })
    .where(and(eq(connectors.tenantId, tenantId), eq(connectors.id, connectorId)));
}

/**
 * Puts the connector in ERROR with the refusal of its credentials; with none, lifts such an error
 * (one of `signInErrors`) and leaves any other, e.g. a refused hierarchy sync's, to its own read.
 */
export async function saveSignInFailure(
  db: Database,
  tenantId: string,
  connectorId: string,
  failure: string | undefined,
  signInErrors: readonly string[],
): Promise<void> {
  const connector = and(eq(connectors.tenantId, tenantId), eq(connectors.id, connectorId));
  if (failure) {
    await db.update(connectors).set({ status: "ERROR", lastError: failure }).where(connector);
    return;
  }
  await db
    .update(connectors)
    .set({ status: "CONNECTED", lastError: null })
    .where(and(connector, eq(connectors.status, "ERROR"), inArray(connectors.lastError, [...signInErrors])));
}

/** Says why the last read of the audit stream failed or left files unread; null after a complete read. */
export async function saveEventsError(
  db: Database,
  tenantId: string,
  connectorId: string,
  error: string | null,
): Promise<void> {
  await db
    .update(connectors)
    .set({ eventsError: error })
    .where(and(eq(connectors.tenantId, tenantId), eq(connectors.id, connectorId)));
}

/** The tenant's hierarchy nodes with these external ids (scopes chosen for a bundle, a filter). */
export async function findHierarchyNodes(
  db: Database,
  tenantId: string,
  externalIds: string[],
): Promise<HierarchyNodeRow[]> {
  if (externalIds.length === 0) return [];
  return db
    .select()
    .from(hierarchyNodes)
    .where(and(eq(hierarchyNodes.tenantId, tenantId), inArray(hierarchyNodes.externalId, externalIds)));
}

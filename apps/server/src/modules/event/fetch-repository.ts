import { and, eq, inArray, isNull, ne, or } from "drizzle-orm";
import type { Database } from "../../db/database";
import { connectors, hierarchyNodes } from "../connector/connector-schema";
import { bundles, deployments } from "../deployment/deployment-schema";
import { waivers } from "../waiver/waiver-schema";

export type FetchedConnector = typeof connectors.$inferSelect;

/** Fetch jobs name a connector only; the connector row says which tenant it belongs to. */
export async function findConnectorAnyTenant(
  db: Database,
  connectorId: string,
): Promise<FetchedConnector | undefined> {
  const [row] = await db.select().from(connectors).where(eq(connectors.id, connectorId)).limit(1);
  return row;
}

/** Every connector of every tenant, for the scheduled fetch. */
export async function listConnectorIdsAnyTenant(db: Database): Promise<string[]> {
  const rows = await db.select({ id: connectors.id }).from(connectors);
  return rows.map((r) => r.id);
}

/** The live deployments a connector's events are classified against, with their bundles. */
export async function listClassifiedDeployments(db: Database, tenantId: string, connectorId: string) {
  return db
    .select({
      id: deployments.id,
      bundleId: deployments.bundleId,
      key: bundles.key,
      name: bundles.name,
      namespace: bundles.namespace,
      mode: bundles.mode,
      nativeId: deployments.nativeId,
      scopeExternalId: deployments.scopeExternalId,
      excludedScopes: bundles.excludedScopes,
      affectedResourceTypes: bundles.affectedResourceTypes,
      policySlug: bundles.policySlug,
      parameters: bundles.parameters,
      scopes: bundles.scopes,
    })
    .from(deployments)
    .innerJoin(bundles, eq(bundles.id, deployments.bundleId))
    .where(
      and(
        eq(deployments.tenantId, tenantId),
        or(eq(deployments.connectorId, connectorId), isNull(deployments.connectorId)),
        ne(deployments.status, "DELETED"),
        isNull(bundles.deletedAt),
      ),
    );
}

/** Waivers that were or are in force on the deployments: past events are judged by them too. */
export async function listWaiversInForce(db: Database, tenantId: string, deploymentIds: string[]) {
  if (deploymentIds.length === 0) return [];
  return db
    .select()
    .from(waivers)
    .where(
      and(
        eq(waivers.tenantId, tenantId),
        inArray(waivers.deploymentId, deploymentIds),
        inArray(waivers.status, ["ACTIVE", "EXPIRED", "CANCELLED"]),
      ),
    );
}

export async function listConnectorHierarchy(db: Database, tenantId: string, connectorId: string) {
  return db
    .select({ externalId: hierarchyNodes.externalId, parent: hierarchyNodes.parentExternalId })
    .from(hierarchyNodes)
    .where(and(eq(hierarchyNodes.tenantId, tenantId), eq(hierarchyNodes.connectorId, connectorId)));
}

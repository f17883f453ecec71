import { and, eq, inArray, isNull, max } from "drizzle-orm";
import type { Database } from "../../db/database";
import { connectors, hierarchyNodes } from "../connector/connector-schema";
import { bundles, deployments } from "../deployment/deployment-schema";

/** The tenant's cloud hierarchy as synced by its connectors, for scope filters and the tree. */
export async function listTenantHierarchy(db: Database, tenantId: string) {
  return db
    .select({
      externalId: hierarchyNodes.externalId,
      parent: hierarchyNodes.parentExternalId,
      name: hierarchyNodes.name,
      type: hierarchyNodes.type,
      connectorId: hierarchyNodes.connectorId,
      provider: hierarchyNodes.provider,
    })
    .from(hierarchyNodes)
    .where(eq(hierarchyNodes.tenantId, tenantId));
}

export async function findConnectorId(
  db: Database,
  tenantId: string,
  id: string,
): Promise<string | undefined> {
  const [row] = await db
    .select({ id: connectors.id })
    .from(connectors)
    .where(and(eq(connectors.tenantId, tenantId), eq(connectors.id, id)));
  return row?.id;
}

export async function listConnectorIds(db: Database, tenantId: string): Promise<string[]> {
  const rows = await db
    .select({ id: connectors.id })
    .from(connectors)
    .where(eq(connectors.tenantId, tenantId));
  return rows.map((r) => r.id);
}

/** When events were last fetched from any of the connectors. */
export async function lastEventsFetchedAt(
  db: Database,
  tenantId: string,
  connectorIds: string[],
): Promise<Date | string | null | undefined> {
  const [row] = await db
    .select({ at: max(connectors.eventsFetchedAt) })
    .from(connectors)
    .where(and(eq(connectors.tenantId, tenantId), inArray(connectors.id, connectorIds)));
  return row?.at;
}

/** A bundle of the tenant, deleted ones included unless `live` is asked for. */
export async function findBundleId(
  db: Database,
  tenantId: string,
  bundleId: string,
  options: { live?: boolean } = {},
): Promise<string | undefined> {
  const [row] = await db
    .select({ id: bundles.id })
    .from(bundles)
    .where(
      and(
        eq(bundles.tenantId, tenantId),
        eq(bundles.id, bundleId),
        options.live ? isNull(bundles.deletedAt) : undefined,
      ),
    );
  return row?.id;
}

/** The connectors a bundle is deployed through. */
export async function listBundleConnectorIds(db: Database, tenantId: string, bundleId: string) {
  const rows = await db
    .selectDistinct({ connectorId: deployments.connectorId })
    .from(deployments)
    .where(and(eq(deployments.tenantId, tenantId), eq(deployments.bundleId, bundleId)));
  return rows.map((r) => r.connectorId).filter((id): id is string => Boolean(id));
}

/** A deployment with the bundle fields its events carry. */
export async function findDeploymentOfEvent(db: Database, tenantId: string, deploymentId: string) {
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
    .where(and(eq(deployments.tenantId, tenantId), eq(deployments.id, deploymentId)))
    .limit(1);
  return row;
}

import { and, count, eq, gte, isNull, ne } from "drizzle-orm";
import type { Database } from "../../db/database";
import { connectors, hierarchyNodes } from "../connector/connector-schema";
import { bundles, deployments } from "../deployment/deployment-schema";
import { resourceEvents } from "../event/event-schema";
import { waivers } from "../waiver/waiver-schema";
import type {
  DriftFact,
  LiveDeployment,
  Mode,
  Provider,
  ScopeNode,
  WaiverFact,
} from "./recommendation-rules";

/** Read-only: what the recommendation rules need from the tenant's hierarchy, deployments and events. */

export async function readScopeNodes(db: Database, tenantId: string): Promise<ScopeNode[]> {
  const rows = await db
    .select({
      externalId: hierarchyNodes.externalId,
      parentExternalId: hierarchyNodes.parentExternalId,
      name: hierarchyNodes.name,
      type: hierarchyNodes.type,
      provider: hierarchyNodes.provider,
    })
    .from(hierarchyNodes)
    .where(eq(hierarchyNodes.tenantId, tenantId));
  return rows.map((r) => ({ ...r, provider: r.provider as Provider }));
}

const live = (tenantId: string) =>
  and(
    eq(deployments.tenantId, tenantId),
    eq(bundles.tenantId, tenantId),
    isNull(bundles.deletedAt),
    ne(deployments.status, "DELETED"),
    ne(deployments.status, "DELETING"),
  );

export async function readLiveDeployments(db: Database, tenantId: string): Promise<LiveDeployment[]> {
  const rows = await db
    .select({
      policySlug: bundles.policySlug,
      scopeExternalId: deployments.scopeExternalId,
      mode: bundles.mode,
    })
    .from(deployments)
    .innerJoin(bundles, eq(bundles.id, deployments.bundleId))
    .where(live(tenantId));
  return rows.map((r) => ({ ...r, mode: r.mode as Mode }));
}

/** Open (not dismissed) drifting resources per live deployment. */
export async function readDrift(db: Database, tenantId: string): Promise<DriftFact[]> {
  const rows = await db
    .select({
      policySlug: bundles.policySlug,
      scopeExternalId: deployments.scopeExternalId,
      mode: bundles.mode,
      resources: count(),
    })
    .from(resourceEvents)
    .innerJoin(deployments, eq(deployments.id, resourceEvents.deploymentId))
    .innerJoin(bundles, eq(bundles.id, deployments.bundleId))
    .where(
      and(
        live(tenantId),
        eq(resourceEvents.tenantId, tenantId),
        eq(resourceEvents.type, "DRIFT"),
        eq(resourceEvents.isDismissed, false),
      ),
    )
    .groupBy(bundles.policySlug, deployments.scopeExternalId, bundles.mode);
  return rows.map((r) => ({ ...r, mode: r.mode as Mode }));
}

/** Waivers asked for per policy and deployment scope since `since`. */
export async function readWaiverCounts(db: Database, tenantId: string, since: Date): Promise<WaiverFact[]> {
  return db
    .select({ policySlug: bundles.policySlug, scopeExternalId: deployments.scopeExternalId, count: count() })
    .from(waivers)
    .innerJoin(deployments, eq(deployments.id, waivers.deploymentId))
    .innerJoin(bundles, eq(bundles.id, deployments.bundleId))
    .where(and(eq(waivers.tenantId, tenantId), gte(waivers.createdAt, since)))
    .groupBy(bundles.policySlug, deployments.scopeExternalId);
}

export async function readTenantConnectors(db: Database, tenantId: string) {
  return db.select().from(connectors).where(eq(connectors.tenantId, tenantId));
}

/** Tenants with at least one connector: the ones the daily computation runs for. */
export async function readTenantsWithConnectors(db: Database): Promise<string[]> {
  const rows = await db.selectDistinct({ tenantId: connectors.tenantId }).from(connectors);
  return rows.map((r) => r.tenantId);
}

import { and, eq, gte, sql } from "drizzle-orm";
import type { Database } from "../../db/database";
import { hierarchyNodes } from "../connector/connector-schema";
import { bundles, deployments } from "../deployment/deployment-schema";
import { policyEvents } from "../event/event-schema";
import { waivers } from "./waiver-schema";

/** At most this many waivers feed one analytics answer (the most recent ones). */
export const ANALYTICS_ROW_LIMIT = 20_000;

export interface AnalyticsWaiverRow {
  bundleId: string;
  bundleName: string;
  policyKey: string;
  policySlug: string;
  status: string;
  expiresAt: Date | null;
  durationSeconds: number;
  target: string;
  /** The target's name in the tenant's synced hierarchy, when it is a scope the hierarchy holds. */
  targetName: string | null;
  /** A waived event happened while it was active. */
  used: boolean;
}

/** The tenant's waivers requested since `since`, each with whether anything went through it. */
export async function waiversForAnalytics(
  db: Database,
  tenantId: string,
  since: Date,
  bundleId: string | undefined,
): Promise<AnalyticsWaiverRow[]> {
  const conditions = [eq(waivers.tenantId, tenantId), gte(waivers.createdAt, since)];
  if (bundleId) conditions.push(eq(bundles.id, bundleId));
  const used = sql<boolean>`exists (
    select 1 from ${policyEvents}
    where ${policyEvents.tenantId} = ${waivers.tenantId}
      and ${policyEvents.deploymentId} = ${waivers.deploymentId}
      and ${policyEvents.type} = 'WAIVED'
      and ${waivers.expiresAt} is not null
      and ${policyEvents.occurredAt} >= coalesce(${waivers.reviewedAt}, ${waivers.createdAt})
      and ${policyEvents.occurredAt} <= ${waivers.expiresAt}
  )`;
  const target = sql<string>`coalesce(${waivers.scope}, ${waivers.resource}, ${waivers.principalArn}, ${deployments.scopeExternalId})`;
  // Azure ids differ in case between APIs, so the scope is matched without it.
  const targetName = sql<string | null>`(
    select ${hierarchyNodes.name} from ${hierarchyNodes}
    where ${hierarchyNodes.tenantId} = ${waivers.tenantId}
      and lower(${hierarchyNodes.externalId}) = lower(${target})
    limit 1
  )`;
  return db
    .select({
      bundleId: bundles.id,
      bundleName: bundles.name,
      policyKey: bundles.key,
      policySlug: bundles.policySlug,
      status: waivers.status,
      expiresAt: waivers.expiresAt,
      durationSeconds: waivers.durationSeconds,
      target,
      targetName,
      used,
    })
    .from(waivers)
    .innerJoin(deployments, eq(waivers.deploymentId, deployments.id))
    .innerJoin(bundles, eq(deployments.bundleId, bundles.id))
    .where(and(...conditions))
    .orderBy(sql`${waivers.createdAt} desc`)
    .limit(ANALYTICS_ROW_LIMIT);
}

import { and, asc, count, desc, eq, inArray, isNull, ne, or, type SQL, sql } from "drizzle-orm";
import type { Database } from "../../db/database";
import { policyEvents } from "../event/event-schema";
import { waivers } from "../waiver/waiver-schema";
import type { BundleRow } from "./bundle-repository";
import type { DeploymentRow } from "./deployment-repository";
import { bundles, deployments } from "./deployment-schema";

export interface BundleCounts {
  preventions: number;
  drifts: number;
  waivers: number;
  activeWaivers: number;
}

export interface BundleWithCounts {
  bundle: BundleRow;
  counts: BundleCounts;
}

export interface DeploymentWithCounts {
  deployment: DeploymentRow;
  counts: BundleCounts;
}

// Correlated counts, so that lists can both show and order by them. Columns are qualified by hand:
// drizzle leaves them unqualified in the select list of a single-table query.
const ACTIVE_WAIVER = `w.status = 'ACTIVE' and w.deployment_status = 'ACTIVE' and w.expires_at > now()`;
const BUNDLE_ID = sql.raw(`"bundles"."id"`);
const countSql = {
  preventions: (bundleId: SQL) =>
    sql<number>`(select count(*)::int from policy_events e where e.bundle_id = ${bundleId} and e.type = 'PREVENTION')`,
  drifts: (bundleId: SQL) =>
    sql<number>`(select count(*)::int from policy_events e where e.bundle_id = ${bundleId} and e.type = 'DRIFT')`,
  waivers: (bundleId: SQL) =>
    sql<number>`(select count(*)::int from waivers w join deployments d on d.id = w.deployment_id where d.bundle_id = ${bundleId})`,
  // Active means the cloud enforces it: approved, unexpired and received by the cloud.
  activeWaivers: (bundleId: SQL) =>
    sql<number>`(select count(*)::int from waivers w join deployments d on d.id = w.deployment_id where d.bundle_id = ${bundleId} and ${sql.raw(ACTIVE_WAIVER)})`,
};

const DEPLOYMENT_ID = sql.raw(`"deployments"."id"`);
const deploymentCountSql = {
  preventions: sql<number>`(select count(*)::int from policy_events e where e.deployment_id = ${DEPLOYMENT_ID} and e.type = 'PREVENTION')`,
  drifts: sql<number>`(select count(*)::int from policy_events e where e.deployment_id = ${DEPLOYMENT_ID} and e.type = 'DRIFT')`,
  waivers: sql<number>`(select count(*)::int from waivers w where w.deployment_id = ${DEPLOYMENT_ID})`,
  activeWaivers: sql<number>`(select count(*)::int from waivers w where w.deployment_id = ${DEPLOYMENT_ID} and ${sql.raw(ACTIVE_WAIVER)})`,
};

function numbers(counts: Record<keyof BundleCounts, unknown>): BundleCounts {
  return {
    preventions: Number(counts.preventions ?? 0),
    drifts: Number(counts.drifts ?? 0),
    waivers: Number(counts.waivers ?? 0),
    activeWaivers: Number(counts.activeWaivers ?? 0),
  };
}

export interface BundleFilter {
  search?: string;
  modes: string[];
  statuses: string[];
  namespaces: string[];
  policySlugs: string[];
  affectedResourceTypes: string[];
  mainResourceTypes: string[];
  scopes: string[];
  providers: string[];
}

export type BundleOrder = "created_at" | "name" | "mode" | "status" | "preventions";

function bundleConditions(tenantId: string, filter: BundleFilter): SQL | undefined {
  const like = filter.search ? `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  return and(
    eq(bundles.tenantId, tenantId),
    // Deleted bundles are listed only when asked for by status.
    filter.statuses.includes("DELETED") ? undefined : isNull(bundles.deletedAt),
    like
      ? or(
          sql`${bundles.name} ilike ${like}`,
          sql`${bundles.key} ilike ${like}`,
          sql`${bundles.policySlug} ilike ${like}`,
        )
      : undefined,
    filter.modes.length > 0 ? inArray(bundles.mode, filter.modes) : undefined,
    filter.statuses.length > 0 ? inArray(bundles.status, filter.statuses) : undefined,
    filter.namespaces.length > 0 ? inArray(bundles.namespace, filter.namespaces) : undefined,
    filter.policySlugs.length > 0 ? inArray(bundles.policySlug, filter.policySlugs) : undefined,
    filter.affectedResourceTypes.length > 0
      ? sql`${bundles.affectedResourceTypes} && ${sql`ARRAY[${sql.join(
          filter.affectedResourceTypes.map((t) => sql`${t}`),
          sql`, `,
        )}]::text[]`}`
      : undefined,
    filter.mainResourceTypes.length > 0
      ? inArray(bundles.mainResourceType, filter.mainResourceTypes)
      : undefined,
    filter.providers.length > 0 ? inArray(bundles.provider, filter.providers) : undefined,
    filter.scopes.length > 0 ? inArray(bundles.id, deployedToAnyOf(filter.scopes)) : undefined,
  );
}

function deployedToAnyOf(scopes: string[]) {
  return sql`(select ${deployments.bundleId} from ${deployments} where ${inArray(
    deployments.scopeExternalId,
    scopes,
  )} and ${deployments.status} <> 'DELETED')`;
}

export async function listBundles(
  db: Database,
  tenantId: string,
  filter: BundleFilter,
  order: { by: BundleOrder; descending: boolean },
  window: { offset: number; limit: number },
): Promise<{ items: BundleWithCounts[]; total: number }> {
  const where = bundleConditions(tenantId, filter);
  const orderColumn = {
    created_at: sql`${bundles.createdAt}`,
    name: sql`lower(${bundles.name})`,
    mode: sql`${bundles.mode}`,
    status: sql`${bundles.status}`,
    preventions: countSql.preventions(BUNDLE_ID),
  }[order.by];
  const direction = order.descending ? desc : asc;
  const rows = await db
    .select({
      bundle: bundles,
      preventions: countSql.preventions(BUNDLE_ID),
      drifts: countSql.drifts(BUNDLE_ID),
      waivers: countSql.waivers(BUNDLE_ID),
      activeWaivers: countSql.activeWaivers(BUNDLE_ID),
    })
    .from(bundles)
    .where(where)
    .orderBy(direction(orderColumn), direction(bundles.id))
    .limit(window.limit)
    .offset(window.offset);
  const [total] = await db.select({ n: count() }).from(bundles).where(where);
  return {
    items: rows.map(({ bundle, ...counts }) => ({ bundle, counts: numbers(counts) })),
    total: total?.n ?? 0,
  };
}

/** Every matching bundle, oldest first (exports). */
export async function allBundles(db: Database, tenantId: string, filter: BundleFilter): Promise<BundleRow[]> {
  return db
    .select()
    .from(bundles)
    .where(bundleConditions(tenantId, filter))
    .orderBy(asc(bundles.createdAt), asc(bundles.id));
}

export async function bundleCounts(db: Database, tenantId: string, bundleId: string): Promise<BundleCounts> {
  const [row] = await db
    .select({
      preventions: countSql.preventions(BUNDLE_ID),
      drifts: countSql.drifts(BUNDLE_ID),
      waivers: countSql.waivers(BUNDLE_ID),
      activeWaivers: countSql.activeWaivers(BUNDLE_ID),
    })
    .from(bundles)
    .where(and(eq(bundles.tenantId, tenantId), eq(bundles.id, bundleId)));
  return numbers(row ?? { preventions: 0, drifts: 0, waivers: 0, activeWaivers: 0 });
}

export async function listDeploymentsWithCounts(
  db: Database,
  tenantId: string,
  filter: { ids?: string[]; scopes?: string[]; modes?: string[]; bundleId?: string },
  window?: { offset: number; limit: number; descending: boolean },
): Promise<{ items: DeploymentWithCounts[]; total: number }> {
  const where = and(
    eq(deployments.tenantId, tenantId),
    filter.ids ? inArray(deployments.id, filter.ids) : undefined,
    filter.scopes && filter.scopes.length > 0
      ? inArray(deployments.scopeExternalId, filter.scopes)
      : undefined,
    filter.modes && filter.modes.length > 0 ? inArray(deployments.mode, filter.modes) : undefined,
    filter.bundleId ? eq(deployments.bundleId, filter.bundleId) : undefined,
    filter.ids ? undefined : ne(deployments.status, "DELETED"),
  );
  const direction = window?.descending === false ? asc : desc;
  let query = db
    .select({ deployment: deployments, ...deploymentCountSql })
    .from(deployments)
    .where(where)
    .orderBy(direction(deployments.createdAt), direction(deployments.id))
    .$dynamic();
  if (window) query = query.limit(window.limit).offset(window.offset);
  const rows = await query;
  const [total] = await db.select({ n: count() }).from(deployments).where(where);
  return {
    items: rows.map(({ deployment, ...counts }) => ({ deployment, counts: numbers(counts) })),
    total: total?.n ?? 0,
  };
}

/** Events recorded by the namespace's bundles, per bundle mode. */
export async function summariseNamespaceEvents(
  db: Database,
  tenantId: string,
  namespace: string,
): Promise<{ mode: string; events: number }[]> {
  return db
    .select({ mode: bundles.mode, events: count() })
    .from(policyEvents)
    .innerJoin(bundles, eq(bundles.id, policyEvents.bundleId))
    .where(
      and(
        eq(policyEvents.tenantId, tenantId),
        eq(bundles.tenantId, tenantId),
        eq(bundles.namespace, namespace),
      ),
    )
    .groupBy(bundles.mode);
}

export async function summariseNamespaceWaivers(
  db: Database,
  tenantId: string,
  namespace: string,
): Promise<{ total: number; active: number }> {
  const [row] = await db
    .select({
      total: count(),
      active: sql<number>`count(*) filter (where ${waivers.status} = 'ACTIVE' and ${waivers.deploymentStatus} = 'ACTIVE' and ${waivers.expiresAt} > now())::int`,
    })
    .from(waivers)
    .innerJoin(deployments, eq(deployments.id, waivers.deploymentId))
    .innerJoin(bundles, eq(bundles.id, deployments.bundleId))
    .where(and(eq(waivers.tenantId, tenantId), eq(bundles.namespace, namespace)));
  return { total: Number(row?.total ?? 0), active: Number(row?.active ?? 0) };
}

/** Per policy slug: live bundles by mode, and their prevention/drift/active waiver counts. */
export async function policyUsage(
  db: Database,
  tenantId: string,
): Promise<
  Map<
    string,
    {
      bundles: number;
      prevent: number;
      alert: number;
      preventions: number;
      drifts: number;
      activeWaivers: number;
    }
  >
> {
  const rows = await db
    .select({
      slug: bundles.policySlug,
      mode: bundles.mode,
      preventions: countSql.preventions(BUNDLE_ID),
      drifts: countSql.drifts(BUNDLE_ID),
      activeWaivers: countSql.activeWaivers(BUNDLE_ID),
    })
    .from(bundles)
    .where(and(eq(bundles.tenantId, tenantId), isNull(bundles.deletedAt)));
  const usage = new Map<
    string,
    {
      bundles: number;
      prevent: number;
      alert: number;
      preventions: number;
      drifts: number;
      activeWaivers: number;
    }
  >();
  for (const row of rows) {
    const entry = usage.get(row.slug) ?? {
      bundles: 0,
      prevent: 0,
      alert: 0,
      preventions: 0,
      drifts: 0,
      activeWaivers: 0,
    };
    entry.bundles += 1;
    if (row.mode === "PREVENT") entry.prevent += 1;
    if (row.mode === "ALERT") entry.alert += 1;
    entry.preventions += Number(row.preventions);
    entry.drifts += Number(row.drifts);
    entry.activeWaivers += Number(row.activeWaivers);
    usage.set(row.slug, entry);
  }
  return usage;
}

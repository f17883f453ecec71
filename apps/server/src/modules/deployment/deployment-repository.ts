import { and, asc, count, desc, eq, inArray, isNull, ne, or, type SQL, sql } from "drizzle-orm";
import type { Database } from "../../db/database";
import { hierarchyNodes } from "../../db/schema/connectors";
import { bundles, deployments, waivers } from "../../db/schema/deployments";
import { policyEvents } from "../../db/schema/events";

export type BundleRow = typeof bundles.$inferSelect;
export type DeploymentRow = typeof deployments.$inferSelect;
export type HierarchyNodeRow = typeof hierarchyNodes.$inferSelect;

/** A scope as stored on bundles and deployments (the contract's Scope in JSON form). */
export interface StoredScope {
  externalId: string;
  name: string;
  /** HierarchyNodeType (`AWS_OU`, `AZURE_SUBSCRIPTION`…). */
  type: string;
  provider: "aws" | "azure";
  connectorId: string;
}

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

/** Postgres unique_violation, as PGlite and node-postgres report it (possibly wrapped by drizzle). */
export function isUniqueViolation(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; depth++) {
    if (e.code === "23505") return true;
    e = e.cause as typeof e;
  }
  return false;
}

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

/** Stores a bundle and its deployments in one transaction; undefined when the key is taken. */
export async function insertBundle(
  db: Database,
  bundle: typeof bundles.$inferInsert,
  targets: StoredScope[],
): Promise<{ bundle: BundleRow; deployments: DeploymentRow[] } | undefined> {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx.insert(bundles).values(bundle).returning();
      if (!row) throw new Error("insert returned no bundle");
      const rows = await tx
        .insert(deployments)
        .values(targets.map((scope) => deploymentValues(row, scope)))
        .returning();
      return { bundle: row, deployments: rows };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return undefined;
    throw error;
  }
}

function deploymentValues(bundle: BundleRow, scope: StoredScope): typeof deployments.$inferInsert {
  return {
    tenantId: bundle.tenantId,
    bundleId: bundle.id,
    key: bundle.key,
    connectorId: scope.connectorId,
    scope,
    scopeExternalId: scope.externalId,
    mode: bundle.mode,
    status: "PENDING",
    parameters: bundle.parameters,
    policySlug: bundle.policySlug,
    name: bundle.name,
    isVisible: bundle.isVisible,
    createdBy: bundle.createdBy,
  };
}

export async function findBundle(db: Database, tenantId: string, id: string): Promise<BundleRow | undefined> {
  const [row] = await db
    .select()
    .from(bundles)
    .where(and(eq(bundles.tenantId, tenantId), eq(bundles.id, id)))
    .limit(1);
  return row;
}

/** By key across every tenant (keys are unique across tenants); the key is matched case-insensitively. */
export async function findBundleByKey(db: Database, key: string): Promise<BundleRow | undefined> {
  const [row] = await db.select().from(bundles).where(eq(bundles.key, key.trim().toUpperCase())).limit(1);
  return row;
}

/** The bundle's deployments, scoped by tenant when one is given. */
export async function findDeploymentsOfBundle(
  db: Database,
  bundleId: string,
  tenantId?: string,
): Promise<DeploymentRow[]> {
  return db
    .select()
    .from(deployments)
    .where(and(eq(deployments.bundleId, bundleId), tenantId ? eq(deployments.tenantId, tenantId) : undefined))
    .orderBy(asc(deployments.createdAt), asc(deployments.id));
}

export async function findDeployment(
  db: Database,
  tenantId: string,
  id: string,
): Promise<DeploymentRow | undefined> {
  const [row] = await db
    .select()
    .from(deployments)
    .where(and(eq(deployments.tenantId, tenantId), eq(deployments.id, id)))
    .limit(1);
  return row;
}

export async function updateBundle(
  db: Database,
  tenantId: string,
  id: string,
  values: Partial<typeof bundles.$inferInsert>,
): Promise<BundleRow | undefined> {
  const [row] = await db
    .update(bundles)
    .set(values)
    .where(and(eq(bundles.tenantId, tenantId), eq(bundles.id, id)))
    .returning();
  return row;
}

export async function updateDeployments(
  db: Database,
  ids: string[],
  values: Partial<typeof deployments.$inferInsert>,
): Promise<void> {
  if (ids.length === 0) return;
  await db.update(deployments).set(values).where(inArray(deployments.id, ids));
}

export async function updateDeploymentsOfBundle(
  db: Database,
  bundleId: string,
  values: Partial<typeof deployments.$inferInsert>,
): Promise<void> {
  await db.update(deployments).set(values).where(eq(deployments.bundleId, bundleId));
}

/**
 * Makes the bundle's live deployments exactly `targets`: new scopes get a PENDING deployment,
 * scopes no longer targeted are marked for removal (status DELETING, the sync removes them from the
 * cloud and marks them DELETED), and every live deployment takes the bundle's current settings.
 */
export async function replaceBundleTargets(
  db: Database,
  bundle: BundleRow,
  targets: StoredScope[] | undefined,
): Promise<void> {
  await db.transaction(async (tx) => {
    // The bundle summarises its deployments, which are all about to be applied again.
    await tx.update(bundles).set({ status: "PENDING", errorCodes: [] }).where(eq(bundles.id, bundle.id));
    const existing = await tx.select().from(deployments).where(eq(deployments.bundleId, bundle.id));
    const shared = {
      mode: bundle.mode,
      parameters: bundle.parameters,
      name: bundle.name,
      isVisible: bundle.isVisible,
      status: "PENDING",
      errorCode: null,
      errorMessage: null,
    };
    if (!targets) {
      const live = existing.filter((d) => d.status !== "DELETED").map((d) => d.id);
      if (live.length > 0) await tx.update(deployments).set(shared).where(inArray(deployments.id, live));
      return;
    }
    const wanted = new Map(targets.map((scope) => [scope.externalId, scope]));
    for (const deployment of existing) {
      const scope = wanted.get(deployment.scopeExternalId);
      if (scope) {
        await tx
          .update(deployments)
          .set({ ...shared, scope, connectorId: scope.connectorId })
          .where(eq(deployments.id, deployment.id));
        wanted.delete(deployment.scopeExternalId);
      } else if (deployment.status !== "DELETED") {
        await tx
          .update(deployments)
          .set({ status: "DELETING", errorCode: null, errorMessage: null })
          .where(eq(deployments.id, deployment.id));
      }
    }
    if (wanted.size > 0) {
      await tx
        .insert(deployments)
        .values([...wanted.values()].map((scope) => deploymentValues(bundle, scope)));
    }
  });
}

/** Live bundles (not deleted) of one tenant, or of every tenant. */
export async function listLiveBundles(
  db: Database,
  filter: { tenantId?: string; bundleId?: string },
): Promise<BundleRow[]> {
  return db
    .select()
    .from(bundles)
    .where(
      and(
        isNull(bundles.deletedAt),
        filter.tenantId ? eq(bundles.tenantId, filter.tenantId) : undefined,
        filter.bundleId ? eq(bundles.id, filter.bundleId) : undefined,
      ),
    )
    .orderBy(asc(bundles.createdAt));
}

/** Bundles whose cloud removal has not finished (deleted, with deployments not yet DELETED). */
export async function listBundlesBeingDeleted(db: Database, tenantId?: string): Promise<BundleRow[]> {
  const pending = db
    .select({ id: deployments.bundleId })
    .from(deployments)
    .where(ne(deployments.status, "DELETED"));
  return db
    .select()
    .from(bundles)
    .where(
      and(
        sql`${bundles.deletedAt} is not null`,
        inArray(bundles.id, pending),
        tenantId ? eq(bundles.tenantId, tenantId) : undefined,
      ),
    );
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

function numbers(counts: Record<keyof BundleCounts, unknown>): BundleCounts {
  return {
    preventions: Number(counts.preventions ?? 0),
    drifts: Number(counts.drifts ?? 0),
    waivers: Number(counts.waivers ?? 0),
    activeWaivers: Number(counts.activeWaivers ?? 0),
  };
}

export async function bundleCounts(db: Database, bundleId: string): Promise<BundleCounts> {
  const id = sql`${bundleId}`;
  const [row] = await db
    .select({
      preventions: countSql.preventions(id),
      drifts: countSql.drifts(id),
      waivers: countSql.waivers(id),
      activeWaivers: countSql.activeWaivers(id),
    })
    .from(sql`(select 1) as one`);
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

export async function listNamespaces(db: Database, tenantId: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ namespace: bundles.namespace })
    .from(bundles)
    .where(
      and(eq(bundles.tenantId, tenantId), isNull(bundles.deletedAt), sql`${bundles.namespace} is not null`),
    )
    .orderBy(asc(bundles.namespace));
  return rows.map((row) => row.namespace ?? "").filter((namespace) => namespace !== "");
}

export async function summariseBundles(
  db: Database,
  tenantId: string,
  namespace: string | undefined,
): Promise<{ mode: string; policies: number }[]> {
  return db
    .select({ mode: bundles.mode, policies: count() })
    .from(bundles)
    .where(
      and(
        eq(bundles.tenantId, tenantId),
        isNull(bundles.deletedAt),
        namespace !== undefined ? eq(bundles.namespace, namespace) : undefined,
      ),
    )
    .groupBy(bundles.mode);
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

export async function validDeploymentIds(
  db: Database,
  tenantId: string,
  bundleIds: string[],
): Promise<string[]> {
  if (bundleIds.length === 0) return [];
  const rows = await db
    .select({ id: deployments.id })
    .from(deployments)
    .innerJoin(bundles, eq(bundles.id, deployments.bundleId))
    .where(
      and(
        eq(deployments.tenantId, tenantId),
        inArray(deployments.bundleId, bundleIds),
        eq(deployments.status, "DEPLOYED"),
        isNull(bundles.deletedAt),
      ),
    )
    .orderBy(asc(deployments.createdAt), asc(deployments.id));
  return rows.map((row) => row.id);
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

/**
 * Per AWS target, how many of the tenant's other live PREVENT bundles attach an SCP there: with
 * FullAWSAccess, what Palisade itself already uses of the 5 SCPs a target may have.
 */
export async function palisadeScpsPerTarget(
  db: Database,
  tenantId: string,
  targets: string[],
  exceptBundleId?: string,
): Promise<Record<string, number>> {
  if (targets.length === 0) return {};
  const rows = await db
    .select({ target: deployments.scopeExternalId, n: count() })
    .from(deployments)
    .innerJoin(bundles, eq(bundles.id, deployments.bundleId))
    .where(
      and(
        eq(deployments.tenantId, tenantId),
        inArray(deployments.scopeExternalId, targets),
        eq(bundles.provider, "aws"),
        eq(bundles.mode, "PREVENT"),
        isNull(bundles.deletedAt),
        inArray(deployments.status, ["PENDING", "EVALUATING", "DEPLOYED"]),
        exceptBundleId ? ne(bundles.id, exceptBundleId) : undefined,
      ),
    )
    .groupBy(deployments.scopeExternalId);
  return Object.fromEntries(rows.map((row) => [row.target, Number(row.n)]));
}

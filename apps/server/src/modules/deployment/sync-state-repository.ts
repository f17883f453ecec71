import { and, asc, eq, inArray, isNull, lte, ne, sql } from "drizzle-orm";
import type { Database } from "../../db/database";
import type { BundleRow } from "./bundle-repository";
import { bundles, deployments } from "./deployment-schema";

// What the bundle engine reads and records while it makes the cloud match the database.

export async function updateDeployments(
  db: Database,
  tenantId: string,
  ids: string[],
  values: Partial<typeof deployments.$inferInsert>,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(deployments)
    .set(values)
    .where(and(eq(deployments.tenantId, tenantId), inArray(deployments.id, ids)));
}

/** The bundle's summary of its deployments: status, when it stops propagating, and error codes. */
export async function setBundleOutcome(
  db: Database,
  tenantId: string,
  bundleId: string,
  values: { status: string; errorCodes?: string[]; propagationEndsAt: Date | null },
): Promise<void> {
  await db
    .update(bundles)
    .set(values)
    .where(and(eq(bundles.tenantId, tenantId), eq(bundles.id, bundleId)));
}

function liveBundles(db: Database, tenantId: string | undefined, bundleId: string | undefined) {
  return db
    .select()
    .from(bundles)
    .where(
      and(
        isNull(bundles.deletedAt),
        tenantId ? eq(bundles.tenantId, tenantId) : undefined,
        bundleId ? eq(bundles.id, bundleId) : undefined,
      ),
    )
    .orderBy(asc(bundles.createdAt));
}

/** Live bundles (not deleted) of the tenant, or only the one asked for. */
export async function listLiveBundles(
  db: Database,
  tenantId: string,
  bundleId?: string,
): Promise<BundleRow[]> {
  return liveBundles(db, tenantId, bundleId);
}

/** Live bundles of every tenant (the scheduled reconcile), or only the one asked for. */
export async function listLiveBundlesAnyTenant(db: Database, bundleId?: string): Promise<BundleRow[]> {
  return liveBundles(db, undefined, bundleId);
}

function bundlesBeingDeleted(db: Database, tenantId: string | undefined) {
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

/** The tenant's bundles whose cloud removal has not finished (deleted, with deployments not yet DELETED). */
export async function listBundlesBeingDeleted(db: Database, tenantId: string): Promise<BundleRow[]> {
  return bundlesBeingDeleted(db, tenantId);
}

/** Every tenant's bundles whose cloud removal has not finished (the scheduled reconcile). */
export async function listBundlesBeingDeletedAnyTenant(db: Database): Promise<BundleRow[]> {
  return bundlesBeingDeleted(db, undefined);
}

/**
 * Deployments whose propagation has ended become DEPLOYED (across tenants: the settle job); a
 * deployment changed meanwhile (propagating again, or failed) is left alone. Returns their bundles.
 */
export async function settlePropagatedDeploymentsAnyTenant(
  db: Database,
  now: Date,
): Promise<{ tenantId: string; bundleId: string }[]> {
  return db
    .update(deployments)
    .set({ status: "DEPLOYED", propagationEndsAt: null })
    .where(and(eq(deployments.status, "PROPAGATING"), lte(deployments.propagationEndsAt, now)))
    .returning({ tenantId: deployments.tenantId, bundleId: deployments.bundleId });
}

/** Bundles still shown PROPAGATING after their end (a sync summed them up while a settle ran). */
export async function bundlesPastPropagationAnyTenant(
  db: Database,
  now: Date,
): Promise<{ tenantId: string; bundleId: string }[]> {
  return db
    .select({ tenantId: bundles.tenantId, bundleId: bundles.id })
    .from(bundles)
    .where(and(eq(bundles.status, "PROPAGATING"), lte(bundles.propagationEndsAt, now)));
}

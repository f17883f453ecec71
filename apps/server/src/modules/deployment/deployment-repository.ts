import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import type { Database, Transaction } from "../../db/database";
import type { BundleRow, StoredScope } from "./bundle-repository";
import { isUniqueViolation } from "./bundle-repository";
import { bundles, deployments } from "./deployment-schema";

export type DeploymentRow = typeof deployments.$inferSelect;

/** Stores a bundle and its deployments in one transaction; undefined when the key is taken. */
export async function insertBundle(
  db: Database,
  bundle: typeof bundles.$inferInsert,
  targets: StoredScope[],
  /** More writes that commit with the bundle or not at all (its audit record). */
  alongside?: (tx: Transaction, bundle: BundleRow) => Promise<void>,
): Promise<{ bundle: BundleRow; deployments: DeploymentRow[] } | undefined> {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx.insert(bundles).values(bundle).returning();
      if (!row) throw new Error("insert returned no bundle");
      const rows = await tx
        .insert(deployments)
        .values(targets.map((scope) => deploymentValues(row, scope)))
        .returning();
      await alongside?.(tx, row);
      return { bundle: row, deployments: rows };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return undefined;
    throw error;
  }
}

export function deploymentValues(bundle: BundleRow, scope: StoredScope): typeof deployments.$inferInsert {
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

/** The bundle's deployments, oldest first. */
export async function findDeploymentsOfBundle(
  db: Database,
  tenantId: string,
  bundleId: string,
): Promise<DeploymentRow[]> {
  return db
    .select()
    .from(deployments)
    .where(and(eq(deployments.tenantId, tenantId), eq(deployments.bundleId, bundleId)))
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

export async function updateDeploymentsOfBundle(
  db: Database,
  tenantId: string,
  bundleId: string,
  values: Partial<typeof deployments.$inferInsert>,
): Promise<void> {
  await db
    .update(deployments)
    .set(values)
    .where(and(eq(deployments.tenantId, tenantId), eq(deployments.bundleId, bundleId)));
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
    await tx
      .update(bundles)
      .set({ status: "PENDING", errorCodes: [] })
      .where(and(eq(bundles.tenantId, bundle.tenantId), eq(bundles.id, bundle.id)));
    const existing = await tx
      .select()
      .from(deployments)
      .where(and(eq(deployments.tenantId, bundle.tenantId), eq(deployments.bundleId, bundle.id)));
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

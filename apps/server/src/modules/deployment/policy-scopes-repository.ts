import { and, eq, inArray, isNull, ne } from "drizzle-orm";
import type { Database } from "../../db/database";
import type { BundleRow, StoredScope } from "./bundle-repository";
import { bundles, deployments } from "./deployment-schema";

/** One live deployment of a policy: where it is. */
export interface PolicyScopeRow {
  policySlug: string;
  scope: StoredScope;
}

/** Where the tenant's live bundles of these policies are deployed (one row per bundle and scope). */
export async function liveScopesOfPolicies(
  db: Database,
  tenantId: string,
  slugs: readonly string[],
): Promise<PolicyScopeRow[]> {
  if (slugs.length === 0) return [];
  const rows = await db
    .select({ policySlug: bundles.policySlug, scope: deployments.scope })
    .from(deployments)
    .innerJoin(bundles, eq(bundles.id, deployments.bundleId))
    .where(
      and(
        eq(deployments.tenantId, tenantId),
        eq(bundles.tenantId, tenantId),
        inArray(bundles.policySlug, [...slugs]),
        isNull(bundles.deletedAt),
        ne(deployments.status, "DELETED"),
        ne(deployments.status, "DELETING"),
      ),
    );
  return rows.map((row) => ({ policySlug: row.policySlug, scope: row.scope as StoredScope }));
}

/** The tenant's bundles with these ids (deleted ones too), with their deployments' first error. */
export async function bundlesWithErrors(
  db: Database,
  tenantId: string,
  ids: readonly string[],
): Promise<{ bundle: BundleRow; errorMessage: string }[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select()
    .from(bundles)
    .where(and(eq(bundles.tenantId, tenantId), inArray(bundles.id, [...ids])));
  const errors = await db
    .select({ bundleId: deployments.bundleId, message: deployments.errorMessage })
    .from(deployments)
    .where(and(eq(deployments.tenantId, tenantId), inArray(deployments.bundleId, [...ids])));
  return rows.map((bundle) => ({
    bundle,
    errorMessage: errors.find((e) => e.bundleId === bundle.id && e.message)?.message ?? "",
  }));
}

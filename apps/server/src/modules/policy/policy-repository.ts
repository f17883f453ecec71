import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Database } from "../../db/database";
import { bundles, deployments } from "../deployment/deployment-schema";

/** Live bundles deployed under one of these native ids (packed SCPs hold several), oldest first. */
export async function findBundlesByNativeIdAnyTenant(
  db: Database,
  nativeIds: readonly string[],
  limit: number,
) {
  if (nativeIds.length === 0) return [];
  return db
    .selectDistinct({
      tenantId: bundles.tenantId,
      key: bundles.key,
      name: bundles.name,
      policySlug: bundles.policySlug,
      parameters: bundles.parameters,
      excludedScopes: bundles.excludedScopes,
      createdAt: bundles.createdAt,
    })
    .from(deployments)
    .innerJoin(bundles, eq(bundles.id, deployments.bundleId))
    .where(and(inArray(deployments.nativeId, [...nativeIds]), isNull(bundles.deletedAt)))
    .orderBy(bundles.createdAt, bundles.key)
    .limit(limit);
}

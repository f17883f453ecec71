import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Database } from "../../db/database";
import { bundles, deployments } from "../../db/schema/deployments";

/**
 * The key of a live bundle deployed under one of these native ids (AWS SCP ids), in whichever
 * tenant holds it: the public waiver page has no tenant, and native ids are the cloud's own.
 */
export async function findBundleKeyByNativeIdAnyTenant(
  db: Database,
  nativeIds: readonly string[],
): Promise<string | undefined> {
  if (nativeIds.length === 0) return undefined;
  const [row] = await db
    .select({ key: bundles.key })
    .from(deployments)
    .innerJoin(bundles, eq(bundles.id, deployments.bundleId))
    .where(and(inArray(deployments.nativeId, [...nativeIds]), isNull(bundles.deletedAt)))
    .limit(1);
  return row?.key;
}

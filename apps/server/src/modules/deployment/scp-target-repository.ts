import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import type { Database } from "../../db/database";
import type { BundleRow } from "./bundle-repository";
import type { DeploymentRow } from "./deployment-repository";
import { bundles, deployments } from "./deployment-schema";

/** A live PREVENT bundle with its deployment on one AWS target. */
export interface TargetGuardrail {
  bundle: BundleRow;
  deployment: DeploymentRow;
}

/**
 * The tenant's live AWS bundles in PREVENT mode that deploy to one target of a connector, oldest
 * first: what the target's packed SCPs must hold.
 */
export async function listGuardrailsOnTarget(
  db: Database,
  tenantId: string,
  connectorId: string,
  target: string,
): Promise<TargetGuardrail[]> {
  const rows = await db
    .select({ bundle: bundles, deployment: deployments })
    .from(deployments)
    .innerJoin(bundles, eq(bundles.id, deployments.bundleId))
    .where(
      and(
        eq(deployments.tenantId, tenantId),
        eq(bundles.tenantId, tenantId),
        eq(deployments.connectorId, connectorId),
        eq(deployments.scopeExternalId, target),
        eq(bundles.provider, "aws"),
        eq(bundles.mode, "PREVENT"),
        isNull(bundles.deletedAt),
        inArray(deployments.status, ["PENDING", "EVALUATING", "DEPLOYED", "FAILED"]),
      ),
    )
    .orderBy(asc(bundles.createdAt), asc(bundles.key));
  return rows;
}

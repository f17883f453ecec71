import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Database } from "../../db/database";
import { bundles, deployments } from "../deployment/deployment-schema";
import { hierarchyNodes } from "./connector-schema";

/** A root, OU or account where Palisade deploys, named as the synced hierarchy names it. */
export interface SpaceTarget {
  id: string;
  name: string;
  /** HierarchyNodeType, e.g. AWS_OU. */
  type: string;
}

/**
 * The targets of a connector where Palisade's AWS guardrails are deployed (live PREVENT bundles),
 * by name then id.
 */
export async function listSpaceTargets(
  db: Database,
  tenantId: string,
  connectorId: string,
): Promise<SpaceTarget[]> {
  const rows = await db
    .selectDistinct({ id: deployments.scopeExternalId, scope: deployments.scope })
    .from(deployments)
    .innerJoin(bundles, eq(bundles.id, deployments.bundleId))
    .where(
      and(
        eq(deployments.tenantId, tenantId),
        eq(bundles.tenantId, tenantId),
        eq(deployments.connectorId, connectorId),
        eq(bundles.provider, "aws"),
        eq(bundles.mode, "PREVENT"),
        isNull(bundles.deletedAt),
        inArray(deployments.status, ["PENDING", "EVALUATING", "DEPLOYED", "FAILED"]),
      ),
    );
  const ids = [...new Set(rows.map((r) => r.id))];
  if (ids.length === 0) return [];
  const nodes = await db
    .select({ id: hierarchyNodes.externalId, name: hierarchyNodes.name, type: hierarchyNodes.type })
    .from(hierarchyNodes)
    .where(
      and(
        eq(hierarchyNodes.tenantId, tenantId),
        eq(hierarchyNodes.connectorId, connectorId),
        inArray(hierarchyNodes.externalId, ids),
      ),
    );
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const stored = new Map(rows.map((r) => [r.id, r.scope as { name?: string; type?: string } | null]));
  return ids
    .map((id) => {
      const node = byId.get(id);
      const scope = stored.get(id);
      return { id, name: node?.name ?? scope?.name ?? id, type: node?.type ?? scope?.type ?? "" };
    })
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

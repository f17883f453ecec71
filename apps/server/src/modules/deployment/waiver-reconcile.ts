import type { AzurePolicyExemptionResource } from "@palisade/policy-engine/compilers/azure/compile-azure";
import type { AzureCloudProvider } from "../../cloud/cloud-provider";
import type { Database } from "../../db/database";
import type { Logger } from "../../logger";
import { recordSystemAudit } from "../audit/audit-api";
import type { WaiverRow } from "../waiver/waiver-api";
import { inCloud } from "./bundle-apply";
import type { DeploymentRow } from "./deployment-repository";

export const RECONCILIATION_CODE = "WAIVERS_RECONCILIATION_FAILED";

export interface WaiverMismatch {
  /** Exemptions of the bundle's assignments that no waiver of the bundle accounts for. */
  unknown: string[];
  /** Waivers the cloud had and lost: ACTIVE in Palisade, their exemption gone. */
  missing: { waiverId: string; exemptionId: string }[];
}

/**
 * Compares the exemptions of the bundle's Azure assignments with its waivers, before the sync puts
 * the enforceable ones back. An exemption is Palisade's when its id is one Palisade would write for
 * a waiver of the bundle (ended waivers' exemptions are being removed by the same sync).
 */
export async function compareExemptions(
  provider: AzureCloudProvider,
  deployed: DeploymentRow[],
  expected: AzurePolicyExemptionResource[],
  waivers: WaiverRow[],
  knownExemptionIds: Set<string>,
): Promise<WaiverMismatch> {
  const found = new Set<string>();
  const unknown: string[] = [];
  for (const deployment of deployed) {
    if (!inCloud(deployment.status) || !deployment.nativeId) continue;
    const assignment = deployment.nativeId.toLowerCase();
    for (const exemption of await provider.listExemptions(deployment.scopeExternalId)) {
      if (exemption.policyAssignmentId.toLowerCase() !== assignment) continue;
      const id = exemption.id.toLowerCase();
      if (found.has(id)) continue;
      found.add(id);
      if (!knownExemptionIds.has(id)) unknown.push(exemption.id);
    }
  }
  const placed = new Set(
    waivers
      .filter(
        (w) =>
          w.status === "ACTIVE" && (w.deploymentStatus === "ACTIVE" || w.deploymentStatus === "PROPAGATING"),
      )
      .map((w) => w.id),
  );
  const assignments = new Set(deployed.map((d) => d.nativeId?.toLowerCase()).filter(Boolean));
  const missing = expected
    .filter(
      (e) =>
        placed.has(e.properties.metadata.palisade.waiverId) &&
        assignments.has(e.properties.policyAssignmentId.toLowerCase()) &&
        !found.has(e.id.toLowerCase()),
    )
    .map((e) => ({ waiverId: e.properties.metadata.palisade.waiverId, exemptionId: e.id }));
  return { unknown, missing };
}

/**
 * Records what a reconcile found: an audit record per discrepancy (for an unknown exemption, only
 * when the bundle did not already carry the code, so a lasting one is not recorded every run).
 */
export async function recordMismatch(
  db: Database,
  logger: Logger,
  bundle: { id: string; tenantId: string; key: string; errorCodes: string[] },
  mismatch: WaiverMismatch,
): Promise<void> {
  for (const { waiverId, exemptionId } of mismatch.missing) {
    logger.warn(
      { bundleId: bundle.id, waiverId, exemptionId },
      "waiver missing from the cloud; restoring it",
    );
    await db.transaction((tx) =>
      recordSystemAudit(tx, bundle.tenantId, "Reconcile.WaiverMissingFromCloud", {
        target: { type: "waiver", id: waiverId, name: bundle.key },
        after: { code: RECONCILIATION_CODE, policyKey: bundle.key, exemptionId, restored: true },
      }),
    );
  }
  if (mismatch.unknown.length === 0 || bundle.errorCodes.includes(RECONCILIATION_CODE)) return;
  for (const exemptionId of mismatch.unknown) {
    logger.warn(
      { bundleId: bundle.id, exemptionId },
      "an exemption Palisade did not create waives the bundle",
    );
    await db.transaction((tx) =>
      recordSystemAudit(tx, bundle.tenantId, "Reconcile.UnknownWaiverInCloud", {
        target: { type: "bundle", id: bundle.id, name: bundle.key },
        after: { code: RECONCILIATION_CODE, policyKey: bundle.key, exemptionId },
      }),
    );
  }
}

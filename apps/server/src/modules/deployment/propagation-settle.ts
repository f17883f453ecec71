import type { Database } from "../../db/database";
import { markPropagatedWaiversEnforced } from "../waiver/waiver-api";
import { findBundle } from "./bundle-repository";
import { findDeploymentsOfBundle } from "./deployment-repository";
import { bundleState } from "./engine-context";
import {
  bundlesPastPropagationAnyTenant,
  setBundleOutcome,
  settlePropagatedDeploymentsAnyTenant,
} from "./sync-state-repository";

/**
 * What the cloud has had long enough to enforce is shown as enforced: PROPAGATING deployments
 * become DEPLOYED and their bundles are summed up again, PROPAGATING waivers become ACTIVE.
 * Re-running it is harmless. Returns how many deployments and waivers changed.
 */
export async function settlePropagation(db: Database, now = new Date()): Promise<number> {
  const settled = await settlePropagatedDeploymentsAnyTenant(db, now);
  const bundles = new Map<string, string>();
  for (const { bundleId, tenantId } of [...settled, ...(await bundlesPastPropagationAnyTenant(db, now))])
    bundles.set(bundleId, tenantId);
  for (const [bundleId, tenantId] of bundles) {
    const bundle = await findBundle(db, tenantId, bundleId);
    if (!bundle) continue;
    const rows = await findDeploymentsOfBundle(db, tenantId, bundleId);
    await setBundleOutcome(db, tenantId, bundleId, bundleState(bundle, rows));
  }
  return settled.length + (await markPropagatedWaiversEnforced(db, now));
}

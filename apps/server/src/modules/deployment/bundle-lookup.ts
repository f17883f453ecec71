import { Code, ConnectError } from "@connectrpc/connect";
import { isPolicyKeyFormat, normalizePolicyKey } from "@palisade/policy-engine/keys/policy-key";
import type { Database } from "../../db/database";
import type { Caller } from "../../rpc/call-context";
import { invalidArgument, invalidField } from "../../rpc/errors";
import { type BundleRow, findBundle, findBundleByKeyAnyTenant } from "./bundle-repository";
import { type DeploymentRow, findDeployment, findDeploymentsOfBundle } from "./deployment-repository";

export const bundleNotFound = () =>
  new ConnectError("No bundle with this id or key in this tenant.", Code.NotFound);
export const deploymentNotFound = () =>
  new ConnectError("No deployment with this id or key in this tenant.", Code.NotFound);

export async function bundleById(db: Database, caller: Caller, id: string): Promise<BundleRow> {
  if (!id) throw invalidField("id", "required.");
  const bundle = await findBundle(db, caller.tenantId, id);
  if (!bundle) throw bundleNotFound();
  return bundle;
}

export async function bundleByKey(db: Database, caller: Caller, raw: string): Promise<BundleRow> {
  const key = normalizePolicyKey(raw);
  if (!isPolicyKeyFormat(key))
    throw invalidField("key", "a policy key is 7 characters (0-9, A-Z without I, L, O, U).");
  const bundle = await findBundleByKeyAnyTenant(db, key);
  // Keys are unique across tenants; another tenant's key is simply not found here.
  if (!bundle || bundle.tenantId !== caller.tenantId) throw bundleNotFound();
  return bundle;
}

/** A deleted bundle is kept for its history but takes no more changes. */
export function liveBundle(bundle: BundleRow): BundleRow {
  if (bundle.deletedAt) {
    throw new ConnectError("The bundle was deleted; it cannot be changed any more.", Code.FailedPrecondition);
  }
  return bundle;
}

/** A deployment by id, or by its bundle's key (the live deployment, else the first). */
export async function deploymentFor(
  db: Database,
  caller: Caller,
  lookup: { case: "id" | "key"; value: string } | { case: undefined },
): Promise<DeploymentRow> {
  if (lookup.case === "id") {
    const row = await findDeployment(db, caller.tenantId, lookup.value);
    if (!row) throw deploymentNotFound();
    return row;
  }
  if (lookup.case === "key") {
    const bundle = await bundleByKey(db, caller, lookup.value).catch(() => {
      throw deploymentNotFound();
    });
    const rows = await findDeploymentsOfBundle(db, caller.tenantId, bundle.id);
    const row = rows.find((d) => d.status !== "DELETED") ?? rows[0];
    if (!row) throw deploymentNotFound();
    return row;
  }
  throw invalidArgument("id or key: required.", [
    { field: "id", message: "required." },
    { field: "key", message: "required." },
  ]);
}

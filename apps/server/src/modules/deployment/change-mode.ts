import type { HandlerContext } from "@connectrpc/connect";
import type { DeploymentMode } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import type { Database } from "../../db/database";
import { requireCaller } from "../../rpc/call-context";
import { invalidField } from "../../rpc/errors";
import { recordAudit } from "../audit/audit-api";
import { bundleById, bundleNotFound, deploymentNotFound, liveBundle } from "./bundle-lookup";
import { type BundleRow, updateBundle } from "./bundle-repository";
import { modeName } from "./deployment-message";
import { findDeployment, replaceBundleTargets } from "./deployment-repository";

/** Changes the mode of the deployment's bundle: one policy serves all of a bundle's scopes. */
export async function changeMode(
  db: Database,
  ctx: HandlerContext,
  id: string,
  mode: DeploymentMode,
): Promise<{ bundle: BundleRow; deploymentId: string }> {
  const caller = requireCaller(ctx);
  if (!id) throw invalidField("id", "required.");
  const name = modeName(mode);
  const deployment = await findDeployment(db, caller.tenantId, id);
  if (!deployment) throw deploymentNotFound();
  const bundle = liveBundle(await bundleById(db, caller, deployment.bundleId));
  const updated = await db.transaction(async (tx) => {
    const saved = await updateBundle(tx, caller.tenantId, bundle.id, {
      mode: name,
      editedBy: caller.name,
      editedAt: new Date(),
    });
    if (!saved) throw bundleNotFound();
    await replaceBundleTargets(tx, saved, undefined);
    await recordAudit(tx, ctx, {
      target: { type: "deployment", id, name: saved.name },
      before: { mode: bundle.mode },
      after: { mode: name },
    });
    return saved;
  });
  return { bundle: updated, deploymentId: id };
}

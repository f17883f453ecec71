import { Code, ConnectError } from "@connectrpc/connect";
import { requireCaller } from "../../../rpc/call-context";
import { invalidField } from "../../../rpc/errors";
import { auditCall } from "../../audit/audit-log";
import { findWaiver as findWaiverView } from "../../waiver/waiver-repository";
import { enqueueBundleSync } from "../bundle-sync";
import type { DeploymentRpc, DeploymentServiceDeps } from "../deployment-deps";
import { cancelWaiver } from "../deployment-repository";

export function deleteWaiver({ db, jobs }: DeploymentServiceDeps): DeploymentRpc["deleteWaiver"] {
  return async (req, ctx) => {
    const caller = requireCaller(ctx);
    if (!req.id) throw invalidField("id", "required.");
    const view = await findWaiverView(db, caller.tenantId, req.id);
    if (!view) throw new ConnectError("No waiver with this id in this tenant.", Code.NotFound);
    const cancelled = await cancelWaiver(db, caller.tenantId, req.id);
    if (!cancelled) {
      throw new ConnectError(
        `The waiver is already ${view.status.toLowerCase()}; only pending or active waivers can be deleted.`,
        Code.FailedPrecondition,
      );
    }
    await auditCall(db, ctx, { targetType: "waiver", targetId: req.id });
    await enqueueBundleSync(jobs, {
      tenantId: caller.tenantId,
      bundleId: view.bundleId,
      reason: "waiver deleted",
    });
    return {};
  };
}

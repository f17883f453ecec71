import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  DeleteBundleRequest,
  DeleteBundleResponseSchema,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { enqueueBundleDelete } from "../../../jobs/bundle-delete-job";
import { requireCaller } from "../../../rpc/call-context";
import { recordAudit } from "../../audit/audit-api";
import { cancelWaiversOfBundle } from "../../waiver/waiver-api";
import { bundleAuditView } from "../bundle-audit";
import { bundleById } from "../bundle-lookup";
import { updateBundle } from "../bundle-repository";
import type { DeploymentServiceDeps } from "../deployment-deps";

export async function deleteBundle(
  { db, jobs }: DeploymentServiceDeps,
  req: DeleteBundleRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof DeleteBundleResponseSchema>> {
  const caller = requireCaller(ctx);
  const bundle = await bundleById(db, caller, req.id);
  if (!bundle.deletedAt) {
    await db.transaction(async (tx) => {
      await updateBundle(tx, caller.tenantId, bundle.id, {
        deletedAt: new Date(),
        status: "DELETED",
        editedBy: caller.name,
        editedAt: new Date(),
      });
      await cancelWaiversOfBundle(tx, caller.tenantId, bundle.id);
      await recordAudit(tx, ctx, {
        target: { type: "bundle", id: bundle.id, name: bundle.name },
        before: bundleAuditView(bundle),
      });
    });
  }
  // Queued again on a repeated call, so that a removal that failed earlier is retried.
  await enqueueBundleDelete(jobs, { tenantId: caller.tenantId, bundleId: bundle.id });
  return {};
}

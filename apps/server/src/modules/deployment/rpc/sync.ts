import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  SyncRequest,
  SyncResponseSchema,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { enqueueReconcile } from "../../../jobs/reconcile-job";
import { requireCaller } from "../../../rpc/call-context";
import { recordAudit } from "../../audit/audit-api";
import type { DeploymentServiceDeps } from "../deployment-deps";

export async function sync(
  { db, jobs }: DeploymentServiceDeps,
  _req: SyncRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof SyncResponseSchema>> {
  const caller = requireCaller(ctx);
  const jobId = await enqueueReconcile(jobs, { tenantId: caller.tenantId });
  await db.transaction((tx) => recordAudit(tx, ctx, { target: { type: "tenant", id: caller.tenantId } }));
  return { jobId: jobId ?? "" };
}

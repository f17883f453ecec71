import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  TriggerFetchRequest,
  TriggerFetchResponseSchema,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { enqueueEventFetch } from "../../../jobs/event-fetch-job";
import { enqueueReconcile } from "../../../jobs/reconcile-job";
import { requireCaller } from "../../../rpc/call-context";
import { recordAudit } from "../../audit/audit-api";
import { bundleById } from "../bundle-lookup";
import type { StoredScope } from "../bundle-repository";
import type { DeploymentServiceDeps } from "../deployment-deps";

export async function triggerFetch(
  { db, jobs }: DeploymentServiceDeps,
  req: TriggerFetchRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof TriggerFetchResponseSchema>> {
  const caller = requireCaller(ctx);
  const bundle = await bundleById(db, caller, req.id);
  const jobId = await enqueueReconcile(jobs, { tenantId: caller.tenantId, bundleId: bundle.id });
  // The events the bundle caused are read from its connector's audit stream.
  const connectorId = (bundle.scopes as StoredScope[])[0]?.connectorId;
  if (connectorId) await enqueueEventFetch(jobs, { tenantId: caller.tenantId, connectorId });
  await db.transaction((tx) =>
    recordAudit(tx, ctx, {
      target: { type: "bundle", id: bundle.id, name: bundle.name },
      after: { jobId },
    }),
  );
  return { jobId: jobId ?? "" };
}

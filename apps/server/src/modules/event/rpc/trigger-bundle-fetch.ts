import { Code, type HandlerContext } from "@connectrpc/connect";
import type { TriggerBundleFetchRequest } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { callError } from "../../../rpc/errors";
import { recordAudit } from "../../audit/audit-api";
import type { EventServiceDeps } from "../event-deps";
import { findBundleId, listBundleConnectorIds } from "../event-lookup-repository";
import { requiredId } from "../event-request";
import { requestFetch } from "../request-fetch";

/** Queues a fetch of the connectors a (live) bundle is deployed through. */
export async function triggerBundleFetch(
  deps: EventServiceDeps,
  req: TriggerBundleFetchRequest,
  ctx: HandlerContext,
) {
  const { db } = deps;
  const caller = requireCaller(ctx);
  const bundleId = await findBundleId(db, caller.tenantId, requiredId(req.bundleId, "bundle_id"), {
    live: true,
  });
  if (!bundleId) throw callError(Code.NotFound, "No such bundle in this tenant.");
  const ids = await listBundleConnectorIds(db, caller.tenantId, bundleId);
  const jobId = await requestFetch(deps, {
    tenantId: caller.tenantId,
    connectorIds: ids,
    createdBy: caller.id,
    kind: "events:bundle-fetch",
  });
  await db.transaction((tx) =>
    recordAudit(tx, ctx, {
      target: { type: "policy_event", id: jobId },
      after: { bundleId, connectorIds: ids },
    }),
  );
  return { jobId };
}

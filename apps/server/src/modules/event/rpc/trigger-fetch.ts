import type { HandlerContext } from "@connectrpc/connect";
import type { TriggerFetchRequest } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { recordAudit } from "../../audit/audit-api";
import type { EventServiceDeps } from "../event-deps";
import { connectorIdsOf } from "../event-request";
import { requestFetch } from "../request-fetch";

/** Queues a fetch of one connector's events, or of all the tenant's connectors. */
export async function triggerFetch(deps: EventServiceDeps, req: TriggerFetchRequest, ctx: HandlerContext) {
  const caller = requireCaller(ctx);
  const ids = await connectorIdsOf(deps.db, caller.tenantId, req.connectorId);
  const jobId = await requestFetch(deps, {
    tenantId: caller.tenantId,
    connectorIds: ids,
    createdBy: caller.id,
    kind: "events:fetch",
  });
  await deps.db.transaction((tx) =>
    recordAudit(tx, ctx, { target: { type: "policy_event", id: jobId }, after: { connectorIds: ids } }),
  );
  return { jobId };
}

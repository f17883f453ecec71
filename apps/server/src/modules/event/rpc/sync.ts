import type { HandlerContext } from "@connectrpc/connect";
import type { SyncRequest } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { auditCall } from "../../audit/audit-log";
import type { EventRpcDeps } from "../event-deps";
import { listConnectorIds } from "../event-lookup-repository";
import { requestFetch } from "../request-fetch";

/** Rebuilds the tenant's resource events from its stored events, then fetches every connector. */
export async function syncEvents(deps: EventRpcDeps, _req: SyncRequest, ctx: HandlerContext) {
  const caller = requireCaller(ctx);
  const ids = await listConnectorIds(deps.db, caller.tenantId);
  const jobId = await requestFetch(deps, {
    tenantId: caller.tenantId,
    connectorIds: ids,
    createdBy: caller.id,
    kind: "events:sync",
    resync: true,
  });
  await auditCall(deps.db, ctx, {
    targetType: "policy_event",
    targetId: jobId,
    details: { connectorIds: ids },
  });
  return { jobId };
}

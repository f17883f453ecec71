import type { HandlerContext } from "@connectrpc/connect";
import type { SyncRequest } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { recordAudit } from "../../audit/audit-api";
import type { EventServiceDeps } from "../event-deps";
import { listConnectorIds } from "../event-lookup-repository";
import { requestFetch } from "../request-fetch";

/** Rebuilds the tenant's resource events from its stored events, then fetches every connector. */
export async function sync(deps: EventServiceDeps, _req: SyncRequest, ctx: HandlerContext) {
  const caller = requireCaller(ctx);
  const ids = await listConnectorIds(deps.db, caller.tenantId);
  const jobId = await requestFetch(deps, {
    tenantId: caller.tenantId,
    connectorIds: ids,
    createdBy: caller.id,
    kind: "events:sync",
    resync: true,
  });
  await deps.db.transaction((tx) =>
    recordAudit(tx, ctx, { target: { type: "policy_event", id: jobId }, after: { connectorIds: ids } }),
  );
  return { jobId };
}

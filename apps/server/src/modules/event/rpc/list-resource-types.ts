import type { HandlerContext } from "@connectrpc/connect";
import type { ListResourceTypesRequest } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import type { EventServiceDeps } from "../event-deps";
import { providerFilterOf } from "../event-query";
import { resourceTypes } from "../event-summary-repository";

/** Resource types seen in the tenant's events, of one provider or (unspecified) of all. */
export async function listResourceTypes(
  { db }: EventServiceDeps,
  req: ListResourceTypesRequest,
  ctx: HandlerContext,
) {
  const caller = requireCaller(ctx);
  const [provider] = providerFilterOf(req.cloudProvider ? [req.cloudProvider] : []);
  return { resourceTypes: await resourceTypes(db, caller.tenantId, provider) };
}

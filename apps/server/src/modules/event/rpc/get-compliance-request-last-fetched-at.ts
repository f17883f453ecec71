import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { HandlerContext } from "@connectrpc/connect";
import type { GetComplianceRequestLastFetchedAtRequest } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import type { EventServiceDeps } from "../event-deps";
import { lastEventsFetchedAt } from "../event-lookup-repository";
import { asDate } from "../event-message";
import { connectorIdsOf } from "../event-request";

/** When events were last fetched from a connector, or from any of the tenant's. */
export async function getComplianceRequestLastFetchedAt(
  { db }: EventServiceDeps,
  req: GetComplianceRequestLastFetchedAtRequest,
  ctx: HandlerContext,
) {
  const caller = requireCaller(ctx);
  const ids = await connectorIdsOf(db, caller.tenantId, req.connectorId);
  if (ids.length === 0) return {};
  const at = await lastEventsFetchedAt(db, caller.tenantId, ids);
  return at ? { lastFetchedAt: timestampFromDate(asDate(at) as Date) } : {};
}

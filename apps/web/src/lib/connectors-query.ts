import { createQueryOptions } from "@connectrpc/connect-query";
import { ConnectorStatus } from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import { ConnectorService } from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { appTransport } from "@/lib/transport";

/** While a sync runs, the list is read again this often to show its end. */
const SYNC_POLL_MS = 1000;

/** The tenant's connectors: listed on the connectors page, and their management accounts kept out of deployments. */
export function connectorsQuery() {
  return {
    ...createQueryOptions(
      ConnectorService.method.listConnectors,
      { pagination: { position: { case: "page", value: 1 }, limit: 200 } },
      { transport: appTransport },
    ),
    refetchInterval: (query: { state: { data?: { items: { status: ConnectorStatus }[] } } }) =>
      query.state.data?.items.some((c) => c.status === ConnectorStatus.SYNCING) ? SYNC_POLL_MS : false,
  };
}

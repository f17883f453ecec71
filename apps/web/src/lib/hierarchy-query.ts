import { createQueryOptions } from "@connectrpc/connect-query";
import { ConnectorService } from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { appTransport } from "@/lib/transport";

/** The tenant's cloud hierarchy as the connectors last synced it: shown by the connectors, chosen from by deployments. */
export function hierarchyQuery() {
  return createQueryOptions(ConnectorService.method.listHierarchy, {}, { transport: appTransport });
}

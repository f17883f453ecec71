import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  ListConnectorsRequest,
  ListConnectorsResponseSchema,
} from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { pageResponse, pageWindow } from "../../../rpc/pagination";
import { providerName } from "../connector-config";
import { connectorMessage } from "../connector-message";
import { listConnectors as listTenantConnectors } from "../connector-repository";
import type { ConnectorServiceDeps } from "../connectors";

export async function listConnectors(
  deps: ConnectorServiceDeps,
  req: ListConnectorsRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof ListConnectorsResponseSchema>> {
  const caller = requireCaller(ctx);
  const window = pageWindow(req.pagination);
  const provider = req.provider === undefined ? undefined : providerName(req.provider, "provider");
  const { rows, total } = await listTenantConnectors(deps.db, caller.tenantId, window, provider);
  return { items: rows.map(connectorMessage), pagination: pageResponse(total, window) };
}

import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  GetConnectorRequest,
  GetConnectorResponseSchema,
} from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { connectorMessage } from "../connector-message";
import { type ConnectorServiceDeps, requireConnector } from "../connectors";

export async function getConnector(
  deps: ConnectorServiceDeps,
  req: GetConnectorRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof GetConnectorResponseSchema>> {
  const caller = requireCaller(ctx);
  return { connector: connectorMessage(await requireConnector(deps.db, caller.tenantId, req.id)) };
}

import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  ListHierarchyRequest,
  ListHierarchyResponseSchema,
} from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { providerName } from "../connector-config";
import { hierarchyTree } from "../connector-message";
import { listHierarchyNodes } from "../connector-repository";
import { type ConnectorServiceDeps, requireConnector } from "../connectors";

export async function listHierarchy(
  deps: ConnectorServiceDeps,
  req: ListHierarchyRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof ListHierarchyResponseSchema>> {
  const { db } = deps;
  const caller = requireCaller(ctx);
  if (req.connectorId !== undefined) await requireConnector(db, caller.tenantId, req.connectorId);
  const provider = req.provider === undefined ? undefined : providerName(req.provider, "provider");
  const rows = await listHierarchyNodes(db, caller.tenantId, {
    connectorIds: req.connectorId === undefined ? undefined : [req.connectorId],
    provider,
  });
  return { roots: hierarchyTree(rows) };
}

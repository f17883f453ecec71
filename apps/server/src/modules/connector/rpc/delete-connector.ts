import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type {
  DeleteConnectorRequest,
  DeleteConnectorResponseSchema,
} from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { auditCall } from "../../audit/audit-log";
import { countActiveDeployments, deleteConnector as deleteTenantConnector } from "../connector-repository";
import { type ConnectorServiceDeps, requireConnector } from "../connectors";

export async function deleteConnector(
  deps: ConnectorServiceDeps,
  req: DeleteConnectorRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof DeleteConnectorResponseSchema>> {
  const { db, runtime } = deps;
  const caller = requireCaller(ctx);
  const row = await requireConnector(db, caller.tenantId, req.id);
  const inUse = await countActiveDeployments(db, caller.tenantId, row.id);
  if (inUse > 0) {
    throw new ConnectError(
      `${inUse} deployment(s) still use this connector; delete or move their bundles first.`,
      Code.FailedPrecondition,
    );
  }
  await deleteTenantConnector(db, caller.tenantId, row.id);
  runtime.forget(row.id);
  await auditCall(db, ctx, {
    targetType: "connector",
    targetId: row.id,
    details: { name: row.name, kind: row.kind },
  });
  return {};
}

import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type {
  DeleteConnectorRequest,
  DeleteConnectorResponseSchema,
} from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { recordAudit } from "../../audit/audit-api";
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
  await db.transaction(async (tx) => {
    await deleteTenantConnector(tx, caller.tenantId, row.id);
    await recordAudit(tx, ctx, {
      target: { type: "connector", id: row.id, name: row.name },
      before: { name: row.name, kind: row.kind, config: row.config },
    });
  });
  runtime.forget(row.id);
  return {};
}

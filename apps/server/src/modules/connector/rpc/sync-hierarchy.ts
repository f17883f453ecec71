import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type {
  SyncHierarchyRequest,
  SyncHierarchyResponseSchema,
} from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { recordAudit } from "../../audit/audit-api";
import { SandboxNotRunningError } from "../connector-runtime";
import { type ConnectorServiceDeps, requireConnector } from "../connectors";

export async function syncHierarchy(
  deps: ConnectorServiceDeps,
  req: SyncHierarchyRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof SyncHierarchyResponseSchema>> {
  const { db, runtime } = deps;
  const caller = requireCaller(ctx);
  const row = await requireConnector(db, caller.tenantId, req.id);
  if (row.kind === "sandbox" && !runtime.sandbox()) {
    throw new ConnectError(new SandboxNotRunningError().message, Code.FailedPrecondition);
  }
  const jobId = await runtime.startSync(row, caller.id);
  await db.transaction((tx) =>
    recordAudit(tx, ctx, { target: { type: "connector", id: row.id, name: row.name }, after: { jobId } }),
  );
  return { jobId };
}

import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import { AwsPolicyType } from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import type {
  GetPolicySpaceRequest,
  GetPolicySpaceResponseSchema,
  TargetPolicySpaceSchema,
} from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { scopeTypeOf } from "../../../rpc/common-message";
import { pageResponse, pageWindow } from "../../../rpc/pagination";
import { describeCloudFailure } from "../connector-runtime";
import { type ConnectorServiceDeps, requireConnector } from "../connectors";
import { readTargetSpace } from "../policy-space";
import { listSpaceTargets } from "../policy-space-repository";

type Response = MessageInitShape<typeof GetPolicySpaceResponseSchema>;

/**
 * The room Palisade's policies take per target and policy type, read from the cloud for one page of
 * the targets it deploys to (by name). A target the cloud does not answer for says why.
 */
export async function getPolicySpace(
  deps: ConnectorServiceDeps,
  req: GetPolicySpaceRequest,
  ctx: HandlerContext,
): Promise<Response> {
  const caller = requireCaller(ctx);
  const row = await requireConnector(deps.db, caller.tenantId, req.connectorId);
  const config = row.config as { provider?: string };
  if (config.provider !== "aws")
    throw new ConnectError("Policy space is measured for AWS connectors only.", Code.FailedPrecondition);
  const window = pageWindow(req.pagination);
  const targets = await listSpaceTargets(deps.db, caller.tenantId, row.id);
  const page = targets.slice(window.offset, window.offset + window.limit);
  const items: MessageInitShape<typeof TargetPolicySpaceSchema>[] = [];
  if (page.length > 0) {
    let provider: ReturnType<ConnectorServiceDeps["runtime"]["providerFor"]>;
    try {
      provider = deps.runtime.providerFor(row);
    } catch (error) {
      throw new ConnectError(describeCloudFailure(error), Code.FailedPrecondition);
    }
    if (provider.provider !== "aws") throw new Error("an AWS connector without an AWS provider");
    for (const target of page) {
      const base = { targetId: target.id, targetName: target.name, targetType: scopeTypeOf(target.type) };
      try {
        const types = await readTargetSpace(provider, row.config, target.id);
        items.push({ ...base, types: types.map((t) => ({ ...t, type: AwsPolicyType[t.type] })) });
      } catch (error) {
        items.push({ ...base, types: [], error: describeCloudFailure(error) });
      }
    }
  }
  return { items, pagination: pageResponse(targets.length, window) };
}

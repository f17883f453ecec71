import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type {
  RevokeApiKeyRequest,
  RevokeApiKeyResponseSchema,
} from "@palisade/api/gen/palisade/team/v1/team_pb";
import { requireCaller } from "../../../rpc/call-context";
import { auditCall } from "../../audit/audit-log";
import type { TeamServiceDeps } from "../team-members";
import { deleteApiKey } from "../team-repository";

export async function revokeApiKey(
  deps: TeamServiceDeps,
  req: RevokeApiKeyRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof RevokeApiKeyResponseSchema>> {
  const caller = requireCaller(ctx);
  if (!req.id || !(await deleteApiKey(deps.db, caller.tenantId, req.id))) {
    throw new ConnectError("No API key with this id in this tenant.", Code.NotFound);
  }
  await auditCall(deps.db, ctx, { targetType: "api_key", targetId: req.id });
  return {};
}

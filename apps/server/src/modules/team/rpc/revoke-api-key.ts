import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type {
  RevokeApiKeyRequest,
  RevokeApiKeyResponseSchema,
} from "@palisade/api/gen/palisade/team/v1/team_pb";
import { requireCaller } from "../../../rpc/call-context";
import { recordAudit } from "../../audit/audit-api";
import type { TeamServiceDeps } from "../team-members";
import { deleteApiKey, listApiKeys } from "../team-repository";

export async function revokeApiKey(
  deps: TeamServiceDeps,
  req: RevokeApiKeyRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof RevokeApiKeyResponseSchema>> {
  const caller = requireCaller(ctx);
  const key = (await listApiKeys(deps.db, caller.tenantId)).find((k) => k.id === req.id);
  await deps.db.transaction(async (tx) => {
    if (!req.id || !(await deleteApiKey(tx, caller.tenantId, req.id))) {
      throw new ConnectError("No API key with this id in this tenant.", Code.NotFound);
    }
    await recordAudit(tx, ctx, {
      target: { type: "api_key", id: req.id, name: key?.name },
      before: key ? { name: key.name, expiresAt: key.expiresAt } : null,
    });
  });
  return {};
}

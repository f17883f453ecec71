import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  ListApiKeysRequest,
  ListApiKeysResponseSchema,
} from "@palisade/api/gen/palisade/team/v1/team_pb";
import { requireCaller } from "../../../rpc/call-context";
import type { TeamServiceDeps } from "../team-members";
import { apiKeyMessage } from "../team-message";
import { listApiKeys as listTenantApiKeys } from "../team-repository";

export async function listApiKeys(
  deps: TeamServiceDeps,
  _req: ListApiKeysRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof ListApiKeysResponseSchema>> {
  const caller = requireCaller(ctx);
  return { items: (await listTenantApiKeys(deps.db, caller.tenantId)).map(apiKeyMessage) };
}

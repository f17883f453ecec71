import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  ListMembersRequest,
  ListMembersResponseSchema,
} from "@palisade/api/gen/palisade/team/v1/team_pb";
import { requireCaller } from "../../../rpc/call-context";
import { pageResponse, pageWindow } from "../../../rpc/pagination";
import type { TeamServiceDeps } from "../team-members";
import { memberMessage } from "../team-message";
import { listMembers as listTenantMembers } from "../team-repository";

export async function listMembers(
  deps: TeamServiceDeps,
  req: ListMembersRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof ListMembersResponseSchema>> {
  const caller = requireCaller(ctx);
  const window = pageWindow(req.pagination);
  const search = req.search?.trim();
  // A single character matches too much to be useful; it is ignored as on every list.
  const { rows, total } = await listTenantMembers(
    deps.db,
    caller.tenantId,
    window,
    search && search.length > 1 ? search : undefined,
  );
  return { items: rows.map(memberMessage), pagination: pageResponse(total, window) };
}

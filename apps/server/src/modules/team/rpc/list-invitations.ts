import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  ListInvitationsRequest,
  ListInvitationsResponseSchema,
} from "@palisade/api/gen/palisade/team/v1/team_pb";
import { requireCaller } from "../../../rpc/call-context";
import type { TeamServiceDeps } from "../team-members";
import { invitationMessage } from "../team-message";
import { listPendingInvitations } from "../team-repository";

export async function listInvitations(
  deps: TeamServiceDeps,
  _req: ListInvitationsRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof ListInvitationsResponseSchema>> {
  const caller = requireCaller(ctx);
  const rows = await listPendingInvitations(deps.db, caller.tenantId, new Date());
  return { invitations: rows.map(invitationMessage) };
}

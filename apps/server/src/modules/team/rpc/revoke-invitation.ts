import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type {
  RevokeInvitationRequest,
  RevokeInvitationResponseSchema,
} from "@palisade/api/gen/palisade/team/v1/team_pb";
import { requireCaller } from "../../../rpc/call-context";
import { recordAudit } from "../../audit/audit-api";
import type { TeamServiceDeps } from "../team-members";
import { cancelInvitation } from "../team-repository";

export async function revokeInvitation(
  deps: TeamServiceDeps,
  req: RevokeInvitationRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof RevokeInvitationResponseSchema>> {
  const caller = requireCaller(ctx);
  await deps.db.transaction(async (tx) => {
    if (!req.id || !(await cancelInvitation(tx, caller.tenantId, req.id))) {
      throw new ConnectError("No pending invitation with this id in this tenant.", Code.NotFound);
    }
    await recordAudit(tx, ctx, { target: { type: "invitation", id: req.id }, after: { status: "canceled" } });
  });
  return {};
}

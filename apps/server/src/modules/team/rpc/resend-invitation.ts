import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type {
  ResendInvitationRequest,
  ResendInvitationResponseSchema,
} from "@palisade/api/gen/palisade/team/v1/team_pb";
import { callContext, requireCaller } from "../../../rpc/call-context";
import { recordAudit } from "../../audit/audit-api";
import { sendInvitationMail } from "../invitation-mail";
import { newInvitationToken } from "../invitation-token";
import { takeOrRefuse } from "../team-limits";
import { requireUser, type TeamServiceDeps } from "../team-members";
import { invitationMessage } from "../team-message";
import { renewInvitation } from "../team-repository";

/**
 * Only the token's hash is stored, so the old link cannot be sent again: a new token replaces
 * it. The member who resends becomes the inviter the e-mail names.
 */
export async function resendInvitation(
  deps: TeamServiceDeps,
  req: ResendInvitationRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof ResendInvitationResponseSchema>> {
  const { db } = deps;
  const caller = requireCaller(ctx);
  requireUser(caller, "Resending an invitation");
  await takeOrRefuse([[deps.limits.invitePerClient, callContext(ctx).ip, "invitations from this address"]]);
  const expiresAt = new Date(Date.now() + deps.invitationTtlHours * 3_600_000);
  const { token, tokenHash } = newInvitationToken();
  const row = await db.transaction(async (tx) => {
    const renewed = req.id
      ? await renewInvitation(tx, caller.tenantId, req.id, { tokenHash, expiresAt, inviterId: caller.id })
      : undefined;
    if (!renewed) {
      throw new ConnectError("No pending invitation with this id in this tenant.", Code.NotFound);
    }
    await recordAudit(tx, ctx, {
      target: { type: "invitation", id: req.id, name: renewed.email },
      after: { email: renewed.email, expiresAt },
    });
    return renewed;
  });
  const role = row.role ?? "";
  await sendInvitationMail(deps, {
    id: req.id,
    token,
    tenantId: caller.tenantId,
    email: row.email,
    role,
    inviterName: caller.name,
    expiresAt,
  });
  return {
    invitation: invitationMessage({
      id: req.id,
      email: row.email,
      role,
      inviterName: caller.name,
      createdAt: row.createdAt,
      expiresAt,
      deliveryStatus: "pending",
      deliveryError: null,
    }),
  };
}

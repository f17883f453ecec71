import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type {
  AcceptInvitationRequest,
  AcceptInvitationResponseSchema,
} from "@palisade/api/gen/palisade/team/v1/team_pb";
import { findUserById } from "../../../auth/user-repository";
import { callContext } from "../../../rpc/call-context";
import {
  addInvitedMember,
  auditAcceptance,
  claimInvitationOrRefuse,
  requireAcceptableInvitation,
} from "../invitation-acceptance";
import type { TeamServiceDeps } from "../team-members";

export async function acceptInvitation(
  deps: TeamServiceDeps,
  req: AcceptInvitationRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof AcceptInvitationResponseSchema>> {
  const now = new Date();
  const invitation = await requireAcceptableInvitation(deps.db, req.token, now);
  // Any signed-in user, member of a tenant or not yet.
  const { signedInUserId } = callContext(ctx);
  const user = signedInUserId ? await findUserById(deps.db, signedInUserId) : undefined;
  if (!user) {
    throw new ConnectError(`Sign in as ${invitation.email} to accept this invitation.`, Code.Unauthenticated);
  }
  if (user.email.toLowerCase() !== invitation.email) {
    throw new ConnectError(
      `This invitation is for ${invitation.email}, but you are signed in as ${user.email}. Sign out, then sign in as ${invitation.email} to accept it.`,
      Code.PermissionDenied,
    );
  }
  await deps.db.transaction(async (tx) => {
    await claimInvitationOrRefuse(tx, invitation, now);
    await addInvitedMember(tx, invitation, user.id, now);
    await auditAcceptance(tx, ctx, invitation, user);
  });
  await deps.auth.api.setActiveOrganization({
    headers: ctx.requestHeader,
    body: { organizationId: invitation.tenantId },
  });
  return { tenantId: invitation.tenantId };
}

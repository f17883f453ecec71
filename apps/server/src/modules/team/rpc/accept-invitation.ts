import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type {
  AcceptInvitationRequest,
  AcceptInvitationResponseSchema,
} from "@palisade/api/gen/palisade/team/v1/team_pb";
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
  const session = await deps.auth.api.getSession({ headers: ctx.requestHeader });
  if (!session) {
    throw new ConnectError(`Sign in as ${invitation.email} to accept this invitation.`, Code.Unauthenticated);
  }
  if (session.user.email.toLowerCase() !== invitation.email) {
    throw new ConnectError(
      `This invitation is for ${invitation.email}, but you are signed in as ${session.user.email}. Sign out, then sign in as ${invitation.email} to accept it.`,
      Code.PermissionDenied,
    );
  }
  await deps.db.transaction(async (tx) => {
    await claimInvitationOrRefuse(tx, invitation, now);
    await addInvitedMember(tx, invitation, session.user.id, now);
  });
  await deps.auth.api.setActiveOrganization({
    headers: ctx.requestHeader,
    body: { organizationId: invitation.tenantId },
  });
  await auditAcceptance(deps.db, ctx, invitation, session.user);
  return { tenantId: invitation.tenantId };
}

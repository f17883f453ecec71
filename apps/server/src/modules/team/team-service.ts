import type { ServiceImpl } from "@connectrpc/connect";
import type { TeamService } from "@palisade/api/gen/palisade/team/v1/team_pb";
import { ADDRESS_ANSWER_FLOOR_MS, answerNoSoonerThan } from "../../auth/answer-time";
import { acceptInvitation } from "./rpc/accept-invitation";
import { acceptInvitationWithNewAccount } from "./rpc/accept-invitation-with-new-account";
import { changeRole } from "./rpc/change-role";
import { createApiKey } from "./rpc/create-api-key";
import { getInvitationByToken } from "./rpc/get-invitation-by-token";
import { inviteMember } from "./rpc/invite-member";
import { listApiKeys } from "./rpc/list-api-keys";
import { listInvitations } from "./rpc/list-invitations";
import { listMembers } from "./rpc/list-members";
import { removeMember } from "./rpc/remove-member";
import { resendInvitation } from "./rpc/resend-invitation";
import { resetMemberMfa } from "./rpc/reset-member-mfa";
import { revokeApiKey } from "./rpc/revoke-api-key";
import { revokeInvitation } from "./rpc/revoke-invitation";
import { revokeMemberSessions } from "./rpc/revoke-member-sessions";
import { sendRequesterCode } from "./rpc/send-requester-code";
import { setInstanceAdmin } from "./rpc/set-instance-admin";
import { signInRequester } from "./rpc/sign-in-requester";
import { createTeamLimits } from "./team-limits";
import type { TeamServiceDeps } from "./team-members";

export function createTeamService(options: Omit<TeamServiceDeps, "limits">): ServiceImpl<typeof TeamService> {
  const deps: TeamServiceDeps = { ...options, limits: createTeamLimits(options.db) };
  // Answers for an address leave at the same time whether or not it has an account (answer-time.ts).
  return {
    listMembers: (req, ctx) => listMembers(deps, req, ctx),
    changeRole: (req, ctx) => changeRole(deps, req, ctx),
    removeMember: (req, ctx) => removeMember(deps, req, ctx),
    resetMemberMfa: (req, ctx) => resetMemberMfa(deps, req, ctx),
    revokeMemberSessions: (req, ctx) => revokeMemberSessions(deps, req, ctx),
    inviteMember: (req, ctx) =>
      answerNoSoonerThan(ADDRESS_ANSWER_FLOOR_MS.codesAndLinks, () => inviteMember(deps, req, ctx)),
    listInvitations: (req, ctx) => listInvitations(deps, req, ctx),
    revokeInvitation: (req, ctx) => revokeInvitation(deps, req, ctx),
    resendInvitation: (req, ctx) => resendInvitation(deps, req, ctx),
    getInvitationByToken: (req, ctx) => getInvitationByToken(deps, req, ctx),
    acceptInvitationWithNewAccount: (req, ctx) => acceptInvitationWithNewAccount(deps, req, ctx),
    acceptInvitation: (req, ctx) => acceptInvitation(deps, req, ctx),
    listApiKeys: (req, ctx) => listApiKeys(deps, req, ctx),
    createApiKey: (req, ctx) => createApiKey(deps, req, ctx),
    revokeApiKey: (req, ctx) => revokeApiKey(deps, req, ctx),
    setInstanceAdmin: (req, ctx) => setInstanceAdmin(deps, req, ctx),
    sendRequesterCode: (req, ctx) =>
      answerNoSoonerThan(ADDRESS_ANSWER_FLOOR_MS.codesAndLinks, () => sendRequesterCode(deps, req, ctx)),
    signInRequester: (req, ctx) =>
      answerNoSoonerThan(ADDRESS_ANSWER_FLOOR_MS.codesAndLinks, () => signInRequester(deps, req, ctx)),
  };
}

import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type {
  AcceptInvitationWithNewAccountRequest,
  AcceptInvitationWithNewAccountResponseSchema,
} from "@palisade/api/gen/palisade/team/v1/team_pb";
import { type PasswordPolicy, passwordProblem } from "../../../auth/password-policy";
import { findUserByEmail, insertVerifiedPasswordUser } from "../../../auth/user-repository";
import { type FieldProblem, invalidArgument } from "../../../rpc/errors";
import {
  addInvitedMember,
  auditAcceptance,
  claimInvitationOrRefuse,
  requireAcceptableInvitation,
} from "../invitation-acceptance";
import type { TeamServiceDeps } from "../team-members";

export async function acceptInvitationWithNewAccount(
  deps: TeamServiceDeps,
  req: AcceptInvitationWithNewAccountRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof AcceptInvitationWithNewAccountResponseSchema>> {
  const now = new Date();
  const invitation = await requireAcceptableInvitation(deps.db, req.token, now);
  const name = req.name.trim();
  const problems = accountProblems(name, req.password, deps.passwordPolicy);
  if (problems.length > 0) {
    throw invalidArgument(problems.map((p) => p.message).join(" "), problems);
  }
  if (await findUserByEmail(deps.db, invitation.email)) {
    throw new ConnectError(
      `An account with ${invitation.email} already exists. Sign in to accept the invitation.`,
      Code.AlreadyExists,
    );
  }
  const authContext = await deps.auth.$context;
  const passwordHash = await authContext.password.hash(req.password);
  const userId = crypto.randomUUID();
  await deps.db.transaction(async (tx) => {
    await claimInvitationOrRefuse(tx, invitation, now);
    // The link reached this address, so the address is verified.
    await insertVerifiedPasswordUser(tx, { id: userId, name, email: invitation.email, passwordHash, now });
    await addInvitedMember(tx, invitation, userId, now);
    await auditAcceptance(tx, ctx, invitation, { id: userId, name, email: invitation.email });
  });

  // Signs the new member in as the sign-in page would: the session cookie comes with this answer.
  const signIn = await deps.auth.api.signInEmail({
    body: { email: invitation.email, password: req.password },
    returnHeaders: true,
  });
  await deps.auth.api.setActiveOrganization({
    headers: new Headers({ authorization: `Bearer ${signIn.response.token}` }),
    body: { organizationId: invitation.tenantId },
  });
  for (const cookie of signIn.headers.getSetCookie()) ctx.responseHeader.append("set-cookie", cookie);
  return { tenantId: invitation.tenantId };
}

function accountProblems(name: string, password: string, policy: PasswordPolicy): FieldProblem[] {
  const problems: FieldProblem[] = [];
  // Maximum lengths are bounds of the contract, checked before.
  if (!name) problems.push({ field: "name", message: '"name" must not be empty' });
  if (!password) problems.push({ field: "password", message: '"password" must not be empty' });
  else {
    const problem = passwordProblem(policy, password);
    if (problem) problems.push({ field: "password", message: problem });
  }
  return problems;
}

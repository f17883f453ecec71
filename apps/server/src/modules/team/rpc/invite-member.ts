import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type {
  InviteMemberRequest,
  InviteMemberResponseSchema,
} from "@palisade/api/gen/palisade/team/v1/team_pb";
import { roleName } from "../../../auth/roles";
import { callContext, requireCaller } from "../../../rpc/call-context";
import { invalidArgument } from "../../../rpc/errors";
import { recordAudit } from "../../audit/audit-api";
import { sendInvitationMail } from "../invitation-mail";
import { newInvitationToken } from "../invitation-token";
import { takeOrRefuse } from "../team-limits";
import { requireBuiltInRole, requireUser, type TeamServiceDeps } from "../team-members";
import { invitationMessage } from "../team-message";
import { findMemberByEmail, insertInvitation } from "../team-repository";

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{1,63}$/;

export async function inviteMember(
  deps: TeamServiceDeps,
  req: InviteMemberRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof InviteMemberResponseSchema>> {
  const { db } = deps;
  const caller = requireCaller(ctx);
  requireUser(caller, "Inviting a member");
  const email = req.email.trim().toLowerCase();
  if (!EMAIL.test(email)) {
    const message = `"${req.email}" is not a valid email`;
    throw invalidArgument(message, [{ field: "email", message }]);
  }
  await takeOrRefuse([
    [deps.limits.invitePerClient, callContext(ctx).ip, "invitations from this address"],
    [deps.limits.invitePerEmail, email, `invitations to ${email}`],
  ]);
  requireBuiltInRole(req.role);
  if (await findMemberByEmail(db, caller.tenantId, email)) {
    throw new ConnectError(`${email} is already a member of this tenant.`, Code.AlreadyExists);
  }
  const createdAt = new Date();
  const id = crypto.randomUUID();
  const expiresAt = new Date(createdAt.getTime() + deps.invitationTtlHours * 3_600_000);
  const { token, tokenHash } = newInvitationToken();
  const role = roleName(req.role);
  await db.transaction(async (tx) => {
    await insertInvitation(tx, {
      id,
      organizationId: caller.tenantId,
      email,
      role,
      status: "pending",
      expiresAt,
      createdAt,
      inviterId: caller.id,
      deliveryStatus: "pending",
      tokenHash,
    });
    await recordAudit(tx, ctx, { target: { type: "invitation", id, name: email }, after: { email, role } });
  });
  await sendInvitationMail(deps, {
    id,
    token,
    tenantId: caller.tenantId,
    email,
    role,
    inviterName: caller.name,
    expiresAt,
  });
  return {
    invitation: invitationMessage({
      id,
      email,
      role,
      inviterName: caller.name,
      createdAt,
      expiresAt,
      deliveryStatus: "pending",
      deliveryError: null,
    }),
  };
}

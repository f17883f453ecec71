import type { MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { HandlerContext } from "@connectrpc/connect";
import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import type {
  GetInvitationByTokenRequest,
  GetInvitationByTokenResponseSchema,
} from "@palisade/api/gen/palisade/team/v1/team_pb";
import { parseRoleName } from "../../../auth/roles";
import { findUserByEmail } from "../../../auth/user-repository";
import { findInvitationByToken, invitationTokenState } from "../invitation-acceptance";
import type { TeamServiceDeps } from "../team-members";

export async function getInvitationByToken(
  deps: TeamServiceDeps,
  req: GetInvitationByTokenRequest,
  _ctx: HandlerContext,
): Promise<MessageInitShape<typeof GetInvitationByTokenResponseSchema>> {
  const row = await findInvitationByToken(deps.db, req.token);
  const state = invitationTokenState(row, new Date());
  if (!row) return { state };
  return {
    state,
    invitation: {
      tenantName: row.tenantName,
      inviterName: row.inviterName,
      role: parseRoleName(row.role) ?? Role.UNSPECIFIED,
      email: row.email,
      expiresAt: timestampFromDate(row.expiresAt),
      hasAccount: (await findUserByEmail(deps.db, row.email)) !== undefined,
    },
  };
}

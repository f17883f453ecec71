import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  RevokeMemberSessionsRequest,
  RevokeMemberSessionsResponseSchema,
} from "@palisade/api/gen/palisade/team/v1/team_pb";
import { forgetTrustedDevices } from "../../../auth/second-factor-repository";
import { deleteAllSessions } from "../../../auth/session-repository";
import { requireCaller } from "../../../rpc/call-context";
import { recordAudit } from "../../audit/audit-api";
import { requireMember, type TeamServiceDeps } from "../team-members";

/** Sign out everywhere, by an administrator: for a lost laptop or a member who is leaving. */
export async function revokeMemberSessions(
  deps: TeamServiceDeps,
  req: RevokeMemberSessionsRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof RevokeMemberSessionsResponseSchema>> {
  const { db } = deps;
  const caller = requireCaller(ctx);
  const row = await requireMember(db, caller.tenantId, req.memberId);
  const revoked = await db.transaction(async (tx) => {
    await forgetTrustedDevices(tx, row.userId);
    const count = await deleteAllSessions(tx, row.userId);
    await recordAudit(tx, ctx, {
      target: { type: "member", id: row.id, name: row.email },
      after: { email: row.email, revoked: count },
    });
    return count;
  });
  return { revoked };
}

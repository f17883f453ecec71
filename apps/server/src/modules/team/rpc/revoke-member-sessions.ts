import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  RevokeMemberSessionsRequest,
  RevokeMemberSessionsResponseSchema,
} from "@palisade/api/gen/palisade/team/v1/team_pb";
import { deleteAllSessions } from "../../../auth/session-repository";
import { requireCaller } from "../../../rpc/call-context";
import { auditCall } from "../../audit/audit-log";
import { requireMember, type TeamServiceDeps } from "../team-members";
import { forgetTrustedDevices } from "../team-repository";

/** Sign out everywhere, by an administrator: for a lost laptop or a member who is leaving. */
export async function revokeMemberSessions(
  deps: TeamServiceDeps,
  req: RevokeMemberSessionsRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof RevokeMemberSessionsResponseSchema>> {
  const { db } = deps;
  const caller = requireCaller(ctx);
  const row = await requireMember(db, caller.tenantId, req.memberId);
  await forgetTrustedDevices(db, row.userId);
  const revoked = await deleteAllSessions(db, row.userId);
  await auditCall(db, ctx, {
    targetType: "member",
    targetId: row.id,
    details: { email: row.email, revoked },
  });
  return { revoked };
}

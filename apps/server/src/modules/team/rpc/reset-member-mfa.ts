import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  ResetMemberMfaRequest,
  ResetMemberMfaResponseSchema,
} from "@palisade/api/gen/palisade/team/v1/team_pb";
import { requireCaller } from "../../../rpc/call-context";
import { auditCall } from "../../audit/audit-log";
import { requireMember, type TeamServiceDeps } from "../team-members";
import { resetUserMfa } from "../team-repository";

export async function resetMemberMfa(
  deps: TeamServiceDeps,
  req: ResetMemberMfaRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof ResetMemberMfaResponseSchema>> {
  const { db } = deps;
  const caller = requireCaller(ctx);
  const row = await requireMember(db, caller.tenantId, req.memberId);
  await resetUserMfa(db, row.userId);
  await auditCall(db, ctx, {
    targetType: "member",
    targetId: row.id,
    details: { email: row.email, hadMfa: row.mfaEnabled },
  });
  return {};
}

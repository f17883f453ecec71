import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  RemoveMemberRequest,
  RemoveMemberResponseSchema,
} from "@palisade/api/gen/palisade/team/v1/team_pb";
import { requireCaller } from "../../../rpc/call-context";
import { auditCall } from "../../audit/audit-log";
import { keepAnAdministrator, requireMember, type TeamServiceDeps } from "../team-members";
import { deleteMember } from "../team-repository";

export async function removeMember(
  deps: TeamServiceDeps,
  req: RemoveMemberRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof RemoveMemberResponseSchema>> {
  const { db } = deps;
  const caller = requireCaller(ctx);
  const row = await requireMember(db, caller.tenantId, req.memberId);
  await keepAnAdministrator(db, caller.tenantId, row, "remove them");
  await deleteMember(db, caller.tenantId, row.id);
  await auditCall(db, ctx, { targetType: "member", targetId: row.id, details: { email: row.email } });
  return {};
}

import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  RemoveMemberRequest,
  RemoveMemberResponseSchema,
} from "@palisade/api/gen/palisade/team/v1/team_pb";
import { requireCaller } from "../../../rpc/call-context";
import { recordAudit } from "../../audit/audit-api";
import { deleteMember } from "../../tenant/tenant-api";
import { keepAnAdministrator, requireMember, type TeamServiceDeps } from "../team-members";

export async function removeMember(
  deps: TeamServiceDeps,
  req: RemoveMemberRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof RemoveMemberResponseSchema>> {
  const { db } = deps;
  const caller = requireCaller(ctx);
  const row = await requireMember(db, caller.tenantId, req.memberId);
  await keepAnAdministrator(db, caller.tenantId, row, "remove them");
  await db.transaction(async (tx) => {
    await deleteMember(tx, caller.tenantId, row.id);
    await recordAudit(tx, ctx, {
      target: { type: "member", id: row.id, name: row.email },
      before: { email: row.email, role: row.role },
    });
  });
  return {};
}

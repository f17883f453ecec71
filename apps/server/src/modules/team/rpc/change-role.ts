import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import type { ChangeRoleRequest, ChangeRoleResponseSchema } from "@palisade/api/gen/palisade/team/v1/team_pb";
import { roleName } from "../../../auth/roles";
import { requireCaller } from "../../../rpc/call-context";
import { recordAudit } from "../../audit/audit-api";
import { updateMemberRole } from "../../tenant/tenant-api";
import {
  keepAnAdministrator,
  requireBuiltInRole,
  requireMember,
  type TeamServiceDeps,
} from "../team-members";
import { memberMessage } from "../team-message";

export async function changeRole(
  deps: TeamServiceDeps,
  req: ChangeRoleRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof ChangeRoleResponseSchema>> {
  const { db } = deps;
  const caller = requireCaller(ctx);
  requireBuiltInRole(req.role);
  const row = await requireMember(db, caller.tenantId, req.memberId);
  if (req.role !== Role.ADMINISTRATOR) {
    await keepAnAdministrator(db, caller.tenantId, row, "change their role");
  }
  const role = roleName(req.role);
  await db.transaction(async (tx) => {
    await updateMemberRole(tx, caller.tenantId, row.id, role);
    await recordAudit(tx, ctx, {
      target: { type: "member", id: row.id, name: row.email },
      before: { role: row.role },
      after: { role },
    });
  });
  return { member: memberMessage({ ...row, role }) };
}

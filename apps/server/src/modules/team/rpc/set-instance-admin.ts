import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type {
  SetInstanceAdminRequest,
  SetInstanceAdminResponseSchema,
} from "@palisade/api/gen/palisade/team/v1/team_pb";
import { requireInstanceAdmin } from "../../../auth/instance-admin";
import { setInstanceAdmin as saveInstanceAdmin } from "../../../auth/user-repository";
import { requireCaller } from "../../../rpc/call-context";
import { recordAudit } from "../../audit/audit-api";
import { requireMember, type TeamServiceDeps } from "../team-members";
import { memberMessage } from "../team-message";

/** An instance administrator promotes a member of their tenant, or takes it back from another. */
export async function setInstanceAdmin(
  deps: TeamServiceDeps,
  req: SetInstanceAdminRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof SetInstanceAdminResponseSchema>> {
  const { db } = deps;
  const caller = requireCaller(ctx);
  await requireInstanceAdmin(db, caller, "make other users instance administrators");
  const row = await requireMember(db, caller.tenantId, req.memberId);
  if (row.userId === caller.id && !req.instanceAdmin) {
    throw new ConnectError(
      "You cannot take away your own instance administration; another instance administrator can.",
      Code.FailedPrecondition,
    );
  }
  await db.transaction(async (tx) => {
    await saveInstanceAdmin(tx, row.userId, req.instanceAdmin);
    await recordAudit(tx, ctx, {
      target: { type: "member", id: row.id, name: row.email },
      after: { email: row.email, instanceAdmin: req.instanceAdmin },
    });
  });
  return { member: memberMessage({ ...row, instanceAdmin: req.instanceAdmin }) };
}

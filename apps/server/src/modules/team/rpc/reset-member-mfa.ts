import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  ResetMemberMfaRequest,
  ResetMemberMfaResponseSchema,
} from "@palisade/api/gen/palisade/team/v1/team_pb";
import { resetUserMfa } from "../../../auth/second-factor-repository";
import { requireCaller } from "../../../rpc/call-context";
import { recordAudit } from "../../audit/audit-api";
import { requireMember, type TeamServiceDeps } from "../team-members";

export async function resetMemberMfa(
  deps: TeamServiceDeps,
  req: ResetMemberMfaRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof ResetMemberMfaResponseSchema>> {
  const { db } = deps;
  const caller = requireCaller(ctx);
  const row = await requireMember(db, caller.tenantId, req.memberId);
  await db.transaction(async (tx) => {
    await resetUserMfa(tx, row.userId);
    await recordAudit(tx, ctx, {
      target: { type: "member", id: row.id, name: row.email },
      after: { email: row.email, hadMfa: row.mfaEnabled },
    });
  });
  return {};
}

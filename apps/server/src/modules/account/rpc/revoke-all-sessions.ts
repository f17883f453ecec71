import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  RevokeAllSessionsRequest,
  RevokeAllSessionsResponseSchema,
} from "@palisade/api/gen/palisade/account/v1/account_pb";
import { deleteAllSessions } from "../../../auth/session-repository";
import { recordAccountAudit } from "../../audit/audit-api";
import { type AccountServiceDeps, requireAccountOwner } from "../account-caller";

/** Logout-all: every session of the caller ends, this one too; the page then signs in again. */
export async function revokeAllSessions(
  deps: AccountServiceDeps,
  _req: RevokeAllSessionsRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof RevokeAllSessionsResponseSchema>> {
  const caller = requireAccountOwner(ctx);
  const revoked = await deps.db.transaction(async (tx) => {
    const count = await deleteAllSessions(tx, caller.id);
    await recordAccountAudit(tx, ctx, {
      target: { type: "user", id: caller.id },
      after: { sessionsEnded: count },
    });
    return count;
  });
  return { revoked };
}

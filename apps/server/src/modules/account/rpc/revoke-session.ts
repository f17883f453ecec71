import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type {
  RevokeSessionRequest,
  RevokeSessionResponseSchema,
} from "@palisade/api/gen/palisade/account/v1/account_pb";
import { deleteSession } from "../../../auth/session-repository";
import { invalidArgument } from "../../../rpc/errors";
import { recordAccountAudit } from "../../audit/audit-api";
import { type AccountServiceDeps, requireAccountOwner } from "../account-caller";

const MAX_ID = 100;

export async function revokeSession(
  deps: AccountServiceDeps,
  req: RevokeSessionRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof RevokeSessionResponseSchema>> {
  const caller = requireAccountOwner(ctx);
  const id = req.sessionId.trim();
  if (!id || id.length > MAX_ID) {
    const message = '"sessionId" must not be empty';
    throw invalidArgument(message, [{ field: "session_id", message }]);
  }
  await deps.db.transaction(async (tx) => {
    if (!(await deleteSession(tx, caller.id, id))) {
      throw new ConnectError(
        "That session has already ended. Reload the list to see the current ones.",
        Code.NotFound,
      );
    }
    await recordAccountAudit(tx, ctx, {
      target: { type: "session", id },
      before: { ended: false },
      after: { ended: true },
    });
  });
  return {};
}

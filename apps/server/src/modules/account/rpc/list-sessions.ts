import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  ListSessionsRequest,
  ListSessionsResponseSchema,
} from "@palisade/api/gen/palisade/account/v1/account_pb";
import { listActiveSessions } from "../../../auth/session-repository";
import { type AccountServiceDeps, requireAccountOwner } from "../account-caller";
import { sessionMessage } from "../account-message";

export async function listSessions(
  deps: AccountServiceDeps,
  _req: ListSessionsRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof ListSessionsResponseSchema>> {
  const caller = requireAccountOwner(ctx);
  const rows = await listActiveSessions(deps.db, caller.id, new Date());
  return { sessions: rows.map((row) => sessionMessage(row, caller.sessionId)) };
}

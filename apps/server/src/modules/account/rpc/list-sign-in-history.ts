import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  ListSignInHistoryRequest,
  ListSignInHistoryResponseSchema,
} from "@palisade/api/gen/palisade/account/v1/account_pb";
import { listSignInEvents } from "../../../auth/sign-in-history-repository";
import { pageResponse, pageWindow } from "../../../rpc/pagination";
import { type AccountServiceDeps, requireAccountOwner } from "../account-caller";
import { signInEventMessage } from "../account-message";

export async function listSignInHistory(
  deps: AccountServiceDeps,
  req: ListSignInHistoryRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof ListSignInHistoryResponseSchema>> {
  const caller = requireAccountOwner(ctx);
  const window = pageWindow(req.pagination);
  const { rows, total } = await listSignInEvents(deps.db, caller.id, window);
  return { items: rows.map(signInEventMessage), pagination: pageResponse(total, window) };
}

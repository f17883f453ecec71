import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type { Database } from "../../db/database";
import { type Caller, requireCaller } from "../../rpc/call-context";

export interface AccountServiceDeps {
  db: Database;
}

/** The account methods act on a person's own account: an API key has none. */
export function requireAccountOwner(ctx: HandlerContext): Caller & { kind: "user" } {
  const caller = requireCaller(ctx);
  if (caller.kind !== "user") {
    throw new ConnectError(
      "Account settings belong to a signed-in user; an API key has none.",
      Code.PermissionDenied,
    );
  }
  return caller as Caller & { kind: "user" };
}

import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type { Database } from "../../db/database";
import { callContext } from "../../rpc/call-context";

export interface AccountServiceDeps {
  db: Database;
  /** ALLOW_SIGN_UP: the sign-in page offers open sign-up. */
  allowSignUp: boolean;
}

/**
 * The person whose account an account method acts on, set by the interceptor for a signed-in
 * user whether or not they belong to a tenant. An API key has no account.
 */
export function requireAccountOwner(ctx: HandlerContext): { id: string; sessionId: string } {
  const { account } = callContext(ctx);
  if (!account) {
    throw new ConnectError(
      "Account settings belong to a signed-in user; an API key has none.",
      Code.PermissionDenied,
    );
  }
  return { id: account.userId, sessionId: account.sessionId };
}

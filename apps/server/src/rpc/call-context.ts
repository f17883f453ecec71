import { Code, ConnectError, createContextKey, type HandlerContext } from "@connectrpc/connect";
import type { Permission, Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";

/** Who is calling, in which tenant, with which permissions. Set by the auth interceptor. */
export interface Caller {
  kind: "user" | "api_key";
  /** The user id, or the API key id. */
  id: string;
  name: string;
  email: string | undefined;
  tenantId: string;
  role: Role;
  permissions: ReadonlySet<Permission>;
  /** The session a signed-in user calls with; absent for API keys. */
  sessionId?: string;
}

export interface CallContext {
  caller: Caller | undefined;
  /**
   * On a public method, the signed-in user of a same-site request, whether or not they belong to a
   * tenant yet (an invitee accepting an invitation). Never set for a cross-site request.
   */
  signedInUserId?: string;
  /**
   * On an account method, the signed-in person and the session they call with, whether or not
   * they belong to a tenant.
   */
  account?: { userId: string; sessionId: string };
  /** The client's address, for rate limits and the audit log. */
  ip: string;
}

export const callContextKey = createContextKey<CallContext>(
  { caller: undefined, ip: "" },
  {
    description: "palisade call context",
  },
);

export function callContext(ctx: HandlerContext): CallContext {
  return ctx.values.get(callContextKey);
}

/** The caller of a method that is not public; the interceptor has already checked it. */
export function requireCaller(ctx: HandlerContext): Caller {
  const { caller } = callContext(ctx);
  if (!caller) throw new ConnectError("Sign in to call this method.", Code.Unauthenticated);
  return caller;
}

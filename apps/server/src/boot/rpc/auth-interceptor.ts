import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { Permission } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import { methodAccess } from "@palisade/api/method-access";
import type { Authentication } from "../../auth/authenticate";
import type { CredentialFailureLog } from "../../auth/credential-failure-log";
import { MFA_SETUP_REQUIRED_MESSAGE } from "../../auth/require-mfa";
import { callContextKey } from "../../rpc/call-context";
import { callError } from "../../rpc/errors";
import type { RateLimiter } from "../../rpc/rate-limiter";
import {
  crossSiteRefused,
  isSameOriginRead,
  requestOriginKey,
  sessionCookieAuthenticates,
} from "./origin-check";

export interface AuthInterceptorDeps {
  authenticate(headers: Headers): Promise<Authentication>;
  /** Applied to public methods, per client address. */
  publicRateLimiter: RateLimiter;
  /** Whether the request's Origin is Palisade's own (for calls the session cookie authenticates). */
  isTrustedOrigin(headers: Headers, requestOrigin: string | undefined): boolean;
  credentialFailures: CredentialFailureLog;
}

/**
 * Every RPC passes here before its handler: public methods are rate limited; account methods
 * need a signed-in person, in a tenant or not; all others need credentials, a tenant and every
 * permission the contract declares for the method.
 */
export function createAuthInterceptor(deps: AuthInterceptorDeps): Interceptor {
  return (next) => async (req) => {
    const access = methodAccess(req.method);
    const context = req.contextValues.get(callContextKey);
    const crossSite =
      sessionCookieAuthenticates(req.header) &&
      !deps.isTrustedOrigin(req.header, req.contextValues.get(requestOriginKey)) &&
      !isSameOriginRead(req.header, req.requestMethod, req.method);

    if (access.public) {
      const verdict = await deps.publicRateLimiter.take(`rpc:${context.ip}`);
      if (!verdict.allowed) {
        throw new ConnectError(
          `Too many requests. Try again in ${verdict.retryAfterSeconds} seconds.`,
          Code.ResourceExhausted,
          { "Retry-After": String(verdict.retryAfterSeconds) },
        );
      }
      // A signed-in visitor of a public page is still known (the waiver page greets them); an
      // anonymous one costs no session lookup.
      const hasCredentials = req.header.has("authorization") || req.header.has("cookie");
      const authentication = hasCredentials
        ? await deps.authenticate(req.header).catch(() => undefined)
        : undefined;
      if (authentication?.status === "invalid")
        deps.credentialFailures.record(context.ip, authentication.reason);
      // A cross-site page may still look a key up, as anyone may, but not as the signed-in user.
      if (authentication?.status === "ok" && !crossSite) {
        const { caller } = authentication;
        const signedInUserId = caller.kind === "user" ? caller.id : undefined;
        req.contextValues.set(callContextKey, { ...context, caller, signedInUserId });
      } else if (
        (authentication?.status === "no_tenant" || authentication?.status === "mfa_setup_required") &&
        !crossSite
      ) {
        req.contextValues.set(callContextKey, { ...context, signedInUserId: authentication.userId });
      }
      return next(req);
    }

    const authentication = await deps.authenticate(req.header);
    if (crossSite && authentication.status !== "anonymous" && authentication.status !== "invalid") {
      throw crossSiteRefused();
    }
    switch (authentication.status) {
      case "anonymous":
        throw new ConnectError("Sign in or send an API key to call this method.", Code.Unauthenticated);
      case "invalid":
        deps.credentialFailures.record(context.ip, authentication.reason);
        throw new ConnectError(authentication.reason, Code.Unauthenticated);
      case "no_tenant":
      case "mfa_setup_required":
        if (access.account) {
          const { userId, sessionId } = authentication;
          req.contextValues.set(callContextKey, { ...context, account: { userId, sessionId } });
          return next(req);
        }
        if (authentication.status === "mfa_setup_required")
          throw callError(Code.PermissionDenied, MFA_SETUP_REQUIRED_MESSAGE, { mfaSetupRequired: true });
        throw new ConnectError(
          "You are not a member of any tenant. Ask an administrator of your organisation to invite you.",
          Code.PermissionDenied,
        );
      case "ok":
        break;
    }
    const { caller } = authentication;
    if (access.account) {
      if (caller.kind !== "user" || !caller.sessionId) {
        throw new ConnectError(
          "Account settings belong to a signed-in user; an API key has none.",
          Code.PermissionDenied,
        );
      }
      const account = { userId: caller.id, sessionId: caller.sessionId };
      req.contextValues.set(callContextKey, { ...context, caller, account });
      return next(req);
    }
    const missing = access.permissions.filter((p) => !caller.permissions.has(p));
    if (missing.length > 0) {
      const names = missing.map((p) => Permission[p]).join(", ");
      throw new ConnectError(
        `Your role does not grant ${names}, which ${req.method.parent.name}.${req.method.name} requires.`,
        Code.PermissionDenied,
      );
    }
    req.contextValues.set(callContextKey, { ...context, caller });
    return next(req);
  };
}

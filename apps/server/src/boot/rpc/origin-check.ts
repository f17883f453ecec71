import { Code, ConnectError, createContextKey } from "@connectrpc/connect";

/** The origin the request was addressed to (scheme and Host, as the proxy forwarded them when trusted). */
export const requestOriginKey = createContextKey<string | undefined>(undefined, {
  description: "origin the request was sent to",
});

export const crossSiteRefused = () => new ConnectError("cross-site request refused", Code.PermissionDenied);

/**
 * A browser attaches the session cookie to requests that other sites make, so a call that
 * the cookie authenticates must come from one of Palisade's own pages. API keys and bearer
 * tokens are never sent by a browser on its own, so they need no such check.
 */
export function sessionCookieAuthenticates(headers: Headers): boolean {
  return !headers.has("authorization") && headers.has("cookie");
}

/**
 * Whether the Origin header names Palisade itself: the origin the request was addressed to,
 * or one of the configured origins (the public address). A missing or `null` Origin is not
 * trusted; browsers send Origin on every POST.
 */
export function createOriginCheck(trustedOrigins: string[]) {
  const trusted = new Set(trustedOrigins.map((origin) => new URL(origin).origin));
  return (headers: Headers, requestOrigin: string | undefined): boolean => {
    const origin = headers.get("origin");
    if (!origin || origin === "null") return false;
    return trusted.has(origin) || origin === requestOrigin;
  };
}

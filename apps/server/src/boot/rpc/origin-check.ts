import type { DescMethod } from "@bufbuild/protobuf";
import { MethodOptions_IdempotencyLevel } from "@bufbuild/protobuf/wkt";
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

/**
 * Whether a cookie-authenticated call is a read that the browser itself says one of Palisade's own
 * pages sent: a Connect GET of a method without side effects, with `Sec-Fetch-Site: same-origin`.
 *
 * Browsers send no Origin on a same-origin GET, so the Origin rule above would refuse the reads a
 * page's head preloads (`<link rel="preload" as="fetch">`) and the page's later fetch of the same
 * address. `Sec-Fetch-Site` is set by the browser and is a forbidden header name: a script on
 * another site cannot set or change it, and the browser says `cross-site` or `same-site` for what
 * that site (or a sibling subdomain) sends. The answer is still unreadable from another origin
 * (no CORS headers are sent), and a method that changes something is never accepted this way:
 * Connect only serves GET for methods marked NO_SIDE_EFFECTS, checked here again, and every POST
 * still needs its Origin. https://www.w3.org/TR/fetch-metadata/#sec-fetch-site-header
 */
export function isSameOriginRead(
  headers: Headers,
  requestMethod: string,
  method: Pick<DescMethod, "idempotency">,
): boolean {
  return (
    requestMethod === "GET" &&
    method.idempotency === MethodOptions_IdempotencyLevel.NO_SIDE_EFFECTS &&
    headers.get("sec-fetch-site") === "same-origin"
  );
}

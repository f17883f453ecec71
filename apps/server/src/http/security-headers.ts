import type { FastifyReply } from "fastify";
import type { HttpApp } from "./http-app";
import { isRpcPath } from "./request-limits";

/**
 * Scripts, styles and connections from Palisade's own origin only; nothing may frame it. The
 * built web app has no inline script or style; the one style element components add at run
 * time (a dialog's scroll lock) carries the page's nonce, which only the page may use.
 */
export function contentSecurityPolicy(nonce?: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    nonce ? `style-src 'self' 'nonce-${nonce}'` : "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

// Passkeys (WebAuthn) stay allowed on the app's own pages; the rest is never used. Only features
// Chromium knows are listed: an unknown one ("bluetooth") is a console warning on every page.
const PERMISSIONS_POLICY = [
  "camera=()",
  "microphone=()",
  "geolocation=()",
  "payment=()",
  "usb=()",
  "serial=()",
  "display-capture=()",
  "publickey-credentials-get=(self)",
  "publickey-credentials-create=(self)",
].join(", ");

/** The waiver page's URL carries a policy key, which must not travel on in a Referer. */
function referrerPolicyFor(url: string): string {
  const path = url.split("?", 1)[0] ?? "";
  return path === "/req" || path.startsWith("/req/") ? "no-referrer" : "strict-origin-when-cross-origin";
}

function isApiPath(url: string): boolean {
  return isRpcPath(url) || url.startsWith("/api/");
}

/**
 * Sets the browser-facing security headers on every answer: pages, assets, RPCs (which write
 * to the socket themselves, taking the headers set before), errors and not-found answers.
 */
export function registerSecurityHeaders(app: HttpApp, options: { publicUrl: string }) {
  const https = new URL(options.publicUrl).protocol === "https:";
  const apply = (url: string, reply: FastifyReply) => {
    // A page sets its own, with its nonce.
    if (!reply.hasHeader("content-security-policy")) {
      reply.header("content-security-policy", contentSecurityPolicy());
    }
    reply.header("x-frame-options", "DENY");
    reply.header("x-content-type-options", "nosniff");
    reply.header("referrer-policy", referrerPolicyFor(url));
    reply.header("permissions-policy", PERMISSIONS_POLICY);
    reply.header("cross-origin-opener-policy", "same-origin");
    // Browsers ignore HSTS over plain HTTP; sending it only for an https address keeps local
    // and test runs honest about what they are.
    if (https) reply.header("strict-transport-security", "max-age=31536000");
    // API answers carry a tenant's data or a credential: no cache, shared or private, keeps them.
    if (isApiPath(url) && !reply.hasHeader("cache-control")) reply.header("cache-control", "no-store");
  };
  app.addHook("onRequest", async (request, reply) => apply(request.url, reply));
  // Error handlers may start from fresh headers; set them again on the way out.
  app.addHook("onSend", async (request, reply) => apply(request.url, reply));
}

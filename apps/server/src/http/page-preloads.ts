import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type ConnectProcedure, connectGetPath } from "@palisade/api/connect-get";
import { isPolicyKeyFormat, POLICY_KEY_LENGTH } from "@palisade/policy-engine/keys/policy-key";

/** Written by the web build beside index.html: the code each page loads first (see the web app's vite-page-preloads.ts). */
const PRELOADS_FILE = "preloads.json";

interface PagePreloads {
  routes: Record<string, string[]>;
  withKey: Record<string, string[]>;
}

/** The session every page asks for first, fetched beside the page's code rather than after it has run. */
const SESSION_PRELOAD = `<link rel="preload" as="fetch" href="/api/auth/get-session" crossorigin="anonymous" />`;

const ASSET_PATH = /^\/assets\/[\w.-]+\.js$/;

/**
 * The waiver page's lookup of the key in its address, as the page sends it (the key trimmed, cut
 * to a key's length, in capitals; see the web app's waiver-request-link.ts): read while its code loads.
 */
function keyLookupPreload(search: URLSearchParams): string[] {
  const key = (search.get("k") ?? "").trim().slice(0, POLICY_KEY_LENGTH).toUpperCase();
  if (!isPolicyKeyFormat(key)) return [];
  const href = connectGetPath("palisade.policy.v1.PolicyService/GetBundleByKey", { key });
  return [
    `<link rel="preload" as="fetch" href="${href.replaceAll("&", "&amp;")}" crossorigin="anonymous" />`,
  ];
}

/** Better Auth's session cookie (`palisade.session_token`, with `__Secure-` over https). */
const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?palisade\.session_token=/;

/** Whether the request carries a session cookie (unchecked: a stale one is read as signed out). */
export function hasSessionCookie(cookie: string): boolean {
  return SESSION_COOKIE.test(cookie);
}

/**
 * The reads a signed-in page waits for before it shows anything (`reads`, their procedures), fetched
 * as the Connect GETs the web app sends for them (its preloadedReadTransport).
 */
function signedInReadPreloads(reads: ConnectProcedure[]): string[] {
  return reads.map(
    (procedure) =>
      `<link rel="preload" as="fetch" href="${connectGetPath(procedure, {}).replaceAll("&", "&amp;")}" crossorigin="anonymous" />`,
  );
}

function readPreloads(webDist: string): PagePreloads {
  const file = join(webDist, PRELOADS_FILE);
  if (!existsSync(file)) return { routes: {}, withKey: {} };
  const parsed = JSON.parse(readFileSync(file, "utf8")) as Partial<PagePreloads>;
  return { routes: parsed.routes ?? {}, withKey: parsed.withKey ?? {} };
}

/**
 * The links a page's head announces, so that the browser fetches them while it reads the page: the
 * session, a signed-in page's first reads (`reads`, as the web app's first-reads.ts names them),
 * and the code of the route at the address (`route`, the pattern it matched) or, for a page with
 * its own entry whose address names a key, what that key loads.
 */
export function createPagePreloads(webDist: string) {
  const preloads = readPreloads(webDist);
  const links = (paths: string[] = []) =>
    paths
      .filter((path) => ASSET_PATH.test(path))
      .map((path) => `<link rel="modulepreload" crossorigin href="${path}" />`);
  return (page: {
    route?: string;
    ownEntry?: string;
    search: URLSearchParams;
    /** The page's first reads, named only for a visitor with a session cookie (see hasSessionCookie). */
    reads?: ConnectProcedure[];
    /** The page was rendered on the server with its first reads: only its code is left to fetch. */
    rendered?: boolean;
  }): string[] => {
    if (!page.ownEntry) {
      const code = links(page.route ? preloads.routes[page.route] : []);
      if (page.rendered) return code;
      // The reads after the code: the browser asks in this order on its few connections, and a read
      // the server answers from the database would hold a connection the code needs first.
      return [SESSION_PRELOAD, ...code, ...signedInReadPreloads(page.reads ?? [])];
    }
    const withKey = page.search.get("k") ? links(preloads.withKey[page.ownEntry]) : [];
    if (page.rendered) return withKey;
    const lookup = page.ownEntry === "/req" ? keyLookupPreload(page.search) : [];
    return [SESSION_PRELOAD, ...lookup, ...withKey];
  };
}

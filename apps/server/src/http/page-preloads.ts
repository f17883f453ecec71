import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { connectGetPath } from "@palisade/api/connect-get";
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

function readPreloads(webDist: string): PagePreloads {
  const file = join(webDist, PRELOADS_FILE);
  if (!existsSync(file)) return { routes: {}, withKey: {} };
  const parsed = JSON.parse(readFileSync(file, "utf8")) as Partial<PagePreloads>;
  return { routes: parsed.routes ?? {}, withKey: parsed.withKey ?? {} };
}

/**
 * The links a page's head announces, so that the browser fetches them while it reads the page: the
 * session, and the code of the route at the address (`route`, the pattern it matched) or, for a
 * page with its own entry whose address names a key, what that key loads.
 */
export function createPagePreloads(webDist: string) {
  const preloads = readPreloads(webDist);
  const links = (paths: string[] = []) =>
    paths
      .filter((path) => ASSET_PATH.test(path))
      .map((path) => `<link rel="modulepreload" crossorigin href="${path}" />`);
  return (page: { route?: string; ownEntry?: string; search: URLSearchParams }): string[] => {
    if (!page.ownEntry) return [SESSION_PRELOAD, ...links(page.route ? preloads.routes[page.route] : [])];
    const withKey = page.search.get("k") ? links(preloads.withKey[page.ownEntry]) : [];
    const lookup = page.ownEntry === "/req" ? keyLookupPreload(page.search) : [];
    return [SESSION_PRELOAD, ...lookup, ...withKey];
  };
}

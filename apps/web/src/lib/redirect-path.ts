import * as z from "zod/mini";

export const defaultLandingPath = "/dashboard";

const knownPaths = [
  /^$/,
  /^\/policies\/create$/,
  /^\/recommendations\/archive$/,
  /^\/req$/,
  /^\/initiatives\/[^/?#]+$/,
  /^\/policies\/[^/?#]+$/,
];

// Unreserved and reserved URL characters plus percent escapes. A leading "//" is refused because the
// browser would read it as another host, which would make the sign-in page an open redirect.
const urlSafePath = /^\/(?!\/)[A-Za-z0-9\-._~!$&'()*+,;=:@%/?#[\]]*$/;

export function isValidRedirectPath(path: string): boolean {
  return knownPaths.some((known) => known.test(path)) || urlSafePath.test(path);
}

export const redirectPathSchema = z.string().check(z.refine(isValidRedirectPath, "Invalid path format"));

/** Where a visitor goes once signed in: the requested path when it is usable, else the dashboard. */
export function postSignInPath(path: string | undefined): string {
  if (path && path !== "/" && isValidRedirectPath(path)) return path;
  return defaultLandingPath;
}

/**
 * Where the sign-in page's redirect leads: its path, with the recommendation it names opened
 * (on the recommendations page when no path is given, or on the given path as its
 * recommendationId search parameter).
 */
export function redirectTarget(
  redirect: { path?: string; recommendationId?: string } | undefined,
): string | undefined {
  const id = redirect?.recommendationId?.trim();
  if (!id) return redirect?.path;
  const path = redirect?.path && redirect.path !== "/" ? redirect.path : "/recommendations";
  if (/[?&]recommendationId=/.test(path)) return path;
  return `${path}${path.includes("?") ? "&" : "?"}recommendationId=${encodeURIComponent(id)}`;
}

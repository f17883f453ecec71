import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fastifyStatic from "@fastify/static";
import type { HttpApp } from "./http-app";
import { isRpcPath } from "./request-limits";

/** Written by the web build beside index.html: the app's page paths, `$name` for a parameter. */
const ROUTES_FILE = "routes.json";

/** Tells the single-page app's paths from unknown ones, from the build's list of route patterns. */
export function createRouteMatcher(patterns: string[]): (path: string) => boolean {
  const compiled = patterns.map((pattern) => pattern.split("/").filter(Boolean));
  return (path) => {
    const segments = path.split("/").filter(Boolean);
    return compiled.some((pattern) => {
      for (const [index, part] of pattern.entries()) {
        // A bare `$` is a splat: it takes the rest of the path.
        if (part === "$") return segments.length > index;
        const segment = segments[index];
        if (segment === undefined) return false;
        if (!part.startsWith("$") && part !== safeDecode(segment)) return false;
      }
      return segments.length === pattern.length;
    });
  };
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function cacheControlFor(file: string): string {
  // Built asset names carry a hash of their content: a changed file is a new URL.
  if (/[\\/]assets[\\/]/.test(file)) return "public, max-age=31536000, immutable";
  // The page names the current assets, so browsers check it again on every load.
  if (/index\.html(\.br|\.gz)?$/.test(file)) return "no-cache";
  return "public, max-age=3600";
}

/**
 * Serves the built web app: pre-compressed copies chosen by Accept-Encoding, hashed assets cached
 * for good, the page itself for every path the app routes, and the page with 404 for the rest
 * (the app then shows its Not Found screen).
 */
export async function registerStaticWeb(app: HttpApp, webDist: string) {
  const routesFile = join(webDist, ROUTES_FILE);
  const isAppRoute = existsSync(routesFile)
    ? createRouteMatcher(JSON.parse(readFileSync(routesFile, "utf8")) as string[])
    : // A build without the list: every path may be a page, as the router decides in the browser.
      () => true;

  await app.register(fastifyStatic, {
    root: webDist,
    wildcard: false,
    index: ["index.html"],
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply, file) => {
      reply.header("cache-control", cacheControlFor(file));
    },
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?", 1)[0] ?? "/";
    const isPageRequest =
      (request.method === "GET" || request.method === "HEAD") &&
      !path.startsWith("/api/") &&
      !path.startsWith("/assets/") &&
      !isRpcPath(path) &&
      // Paths with a file extension are files, never pages.
      !/\.[a-z0-9]+$/i.test(path);
    if (!isPageRequest) return reply.code(404).send({ error: "Not Found" });
    return reply.code(isAppRoute(path) ? 200 : 404).sendFile("index.html");
  });
}

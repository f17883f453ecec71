import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import fastifyStatic from "@fastify/static";
import type { HttpApp } from "./http-app";
import { createPagePreloads, hasSessionCookie } from "./page-preloads";
import { isRpcPath } from "./request-limits";
import { contentSecurityPolicy } from "./security-headers";
import { createPageRenderers, RENDERER_DIR, type RenderedPage } from "./server-rendered-page";

/** Written by the web build beside index.html: the app's page paths, `$name` for a parameter. */
const ROUTES_FILE = "routes.json";

/**
 * The pattern of the single-page app's route a path is, from the build's list of route patterns
 * (a pattern of fixed segments before one with parameters), or undefined for an unknown path.
 */
export function createRouteFinder(patterns: string[]): (path: string) => string | undefined {
  const compiled = patterns
    .map((pattern) => ({ pattern, parts: pattern.split("/").filter(Boolean) }))
    .sort(
      (a, b) =>
        a.parts.filter((p) => p.startsWith("$")).length - b.parts.filter((p) => p.startsWith("$")).length,
    );
  const matches = (parts: string[], segments: string[]) => {
    for (const [index, part] of parts.entries()) {
      // A bare `$` is a splat: it takes the rest of the path.
      if (part === "$") return segments.length > index;
      const segment = segments[index];
      if (segment === undefined) return false;
      if (!part.startsWith("$") && part !== safeDecode(segment)) return false;
    }
    return segments.length === parts.length;
  };
  return (path) => {
    const segments = path.split("/").filter(Boolean);
    return compiled.find(({ parts }) => matches(parts, segments))?.pattern;
  };
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** The page's code, as the web build names it in the page's head. */
const ENTRY_SCRIPT = /<script type="module"(?: crossorigin)? src="(\/assets\/[\w.-]+\.js)"><\/script>/;

/**
 * A page rendered on the server starts its code after its first frame is drawn (the web app's
 * public/start-after-paint.js), so that the code's evaluation does not hold back the content
 * already in the page; the code is fetched beside the page as before.
 */
function startingAfterFirstPaint(page: string): string {
  return page.replace(
    ENTRY_SCRIPT,
    (_tag, entry: string) =>
      `<link rel="modulepreload" crossorigin href="${entry}" />\n    <script type="module" src="/start-after-paint.js?entry=${encodeURIComponent(entry)}"></script>`,
  );
}

/**
 * The page with its nonce where the app's start-up code reads it, the links its head announces,
 * and its content where the server rendered it.
 */
function rendered(page: string, nonce: string, links: string[], content?: RenderedPage): string {
  const withNonce = page.replace("<head>", `<head>\n    <meta name="csp-nonce" content="${nonce}" />`);
  const withLinks =
    links.length === 0
      ? withNonce
      : withNonce.replace("</head>", `${links.map((link) => `  ${link}\n`).join("")}  </head>`);
  return content
    ? startingAfterFirstPaint(withLinks).replace(
        '<div id="root"></div>',
        () => `<div id="root">${content.html}</div>${content.dataScript}`,
      )
    : withLinks;
}

function cacheControlFor(file: string): string {
  // Built asset names carry a hash of their content: a changed file is a new URL.
  if (/[\\/]assets[\\/]/.test(file)) return "public, max-age=31536000, immutable";
  return "public, max-age=3600";
}

/**
 * The pages built as their own entry beside the app's index.html, by path: `req.html` is `/req`
 * (the public waiver page, which loads without the app's router).
 */
function ownEntryPages(webDist: string): Map<string, string> {
  return new Map(
    readdirSync(webDist)
      .filter((file) => file.endsWith(".html") && file !== "index.html")
      .map((file) => [`/${file.slice(0, -".html".length)}`, readFileSync(join(webDist, file), "utf8")]),
  );
}

/**
 * Serves the built web app: pre-compressed copies chosen by Accept-Encoding, hashed assets cached
 * for good, the page itself (never cached unchecked: it names the current assets) for every path
 * the app routes, a page with its own entry for its path, and the app's page with 404 for the
 * rest (the app then shows its Not Found screen).
 */
export async function registerStaticWeb(app: HttpApp, webDist: string) {
  const routesFile = join(webDist, ROUTES_FILE);
  const findRoute = existsSync(routesFile)
    ? createRouteFinder(JSON.parse(readFileSync(routesFile, "utf8")) as string[])
    : undefined;
  // A build without the list: every path may be a page, as the router decides in the browser.
  const isAppRoute = (path: string) => (findRoute ? findRoute(path) !== undefined : true);
  const preloadsOf = createPagePreloads(webDist);
  const renderers = createPageRenderers(app, webDist);

  const page = readFileSync(join(webDist, "index.html"), "utf8");
  const ownPages = ownEntryPages(webDist);

  await app.register(fastifyStatic, {
    root: webDist,
    wildcard: false,
    // The pages are rendered per answer (their nonce), below.
    index: false,
    allowedPath: (path) => !path.endsWith(".html") && !path.startsWith(`/${RENDERER_DIR}/`),
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply, file) => {
      reply.header("cache-control", cacheControlFor(file));
    },
  });

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split("?", 1)[0] ?? "/";
    const isPageRequest =
      (request.method === "GET" || request.method === "HEAD") &&
      !path.startsWith("/api/") &&
      !path.startsWith("/assets/") &&
      !isRpcPath(path) &&
      // Paths with a file extension are files, never pages; a version such as "3.0.0" (an
      // initiative's slug) is not an extension.
      !/\.[a-z][a-z0-9]*$/i.test(path);
    if (!isPageRequest) return reply.code(404).send({ error: "Not Found" });
    const ownPath = path.length > 1 ? path.replace(/\/+$/, "") : path;
    const ownPage = ownPages.get(ownPath);
    const nonce = randomBytes(16).toString("base64");
    const query = request.url.slice(path.length);
    const search = new URLSearchParams(query.slice(1));
    const route = ownPage === undefined ? findRoute?.(path) : undefined;
    const content =
      request.method !== "GET"
        ? undefined
        : ownPath === "/req"
          ? await renderers.waiverPage(request, query)
          : route !== undefined
            ? await renderers.signedInPage(request, request.url)
            : undefined;
    const links = preloadsOf(
      ownPage !== undefined
        ? { ownEntry: ownPath, search, rendered: content !== undefined }
        : {
            route,
            search,
            rendered: content !== undefined,
            // Only a visitor with a session uses a signed-in page's reads: a signed-out one is sent
            // to sign in. The cookie is not checked here (that would cost the page a database
            // read); a stale one preloads an answer that says so, which the page then reads as it
            // would have anyway.
            reads:
              route !== undefined && content === undefined && hasSessionCookie(request.headers.cookie ?? "")
                ? await renderers.firstReadsOf(path)
                : [],
          },
    );
    const html = Buffer.from(rendered(ownPage ?? page, nonce, links, content));
    // The page is small; compressing it per answer costs microseconds.
    const accepted = request.headers["accept-encoding"] ?? "";
    const encoding = /\bbr\b/.test(accepted) ? "br" : /\bgzip\b/.test(accepted) ? "gzip" : undefined;
    reply
      .code(ownPage !== undefined || isAppRoute(path) ? 200 : 404)
      .header("content-type", "text/html; charset=utf-8")
      // A page rendered with what the visitor may read is theirs alone: no shared cache keeps it.
      .header("cache-control", content !== undefined ? "private, no-cache" : "no-cache")
      .header("vary", "accept-encoding")
      .header("content-security-policy", contentSecurityPolicy(nonce));
    if (encoding === undefined) return reply.send(html);
    reply.header("content-encoding", encoding);
    return reply.send(
      encoding === "br"
        ? brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
        : gzipSync(html),
    );
  });
}

import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { Plugin, ResolvedConfig } from "vite";
import { type ManifestChunk, PRELOADS_FILE, pagePreloadsOf } from "./vite-page-preloads.ts";
import { SERVER_RENDERER_DIR } from "./vite-server-renderer-plugin.ts";

/** The file the server reads to tell the app's pages from unknown paths. */
export const ROUTES_FILE = "routes.json";

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|webmanifest|xml)$/;
// Below this, the compressed copy saves less than its own headers cost.
const MIN_BYTES = 1024;

/** The paths of the app's pages (`/policies/$policyId`), as the router plugin generated them. */
export function routePatternsOf(routeTreeSource: string): string[] {
  const patterns = new Set<string>();
  for (const match of routeTreeSource.matchAll(/fullPath: '([^']+)'/g)) {
    const path = match[1] ?? "";
    patterns.add(path.length > 1 ? path.replace(/\/$/, "") : path);
  }
  return [...patterns].sort();
}

/** The files the browser may fetch: not the server renderer, which another plugin writes meanwhile. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === SERVER_RENDERER_DIR) return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

/**
 * Writes Brotli and gzip copies of the built text files beside them (the server picks one by
 * the browser's Accept-Encoding, so nothing is compressed per request), the list of the
 * app's page paths, so the server can answer unknown paths with 404, and the code each page
 * loads first, which the server announces in the page's head (preloads.json).
 */
export function deliveryPlugin(options: {
  routeTree: string;
  /** Own-entry page -> its HTML entry and the parts (manifest keys or chunk names) a key in its address loads. */
  withKey: Record<string, { entry: string; parts: string[] }>;
  /** Route file -> modules its beforeLoad or loader imports on demand. */
  loaderImports?: Record<string, string[]>;
}): Plugin {
  let config: ResolvedConfig;
  return {
    name: "palisade-delivery",
    apply: "build",
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle() {
      const outDir = resolve(config.root, config.build.outDir);
      const patterns = routePatternsOf(readFileSync(options.routeTree, "utf8"));
      if (patterns.length === 0) throw new Error(`no routes found in ${options.routeTree}`);
      writeFileSync(join(outDir, ROUTES_FILE), `${JSON.stringify(patterns, null, 2)}\n`);
      const manifest = JSON.parse(readFileSync(join(outDir, ".vite", "manifest.json"), "utf8")) as Record<
        string,
        ManifestChunk
      >;
      const preloads = pagePreloadsOf(manifest, {
        appEntry: "index.html",
        withKey: options.withKey,
        loaderImports: options.loaderImports,
      });
      const missing = Object.values(options.loaderImports ?? {})
        .flat()
        .filter((key) => !manifest[key]);
      if (missing.length > 0) throw new Error(`not in the build: ${missing.join(", ")}`);
      const unknown = Object.keys(preloads.routes).filter((pattern) => !patterns.includes(pattern));
      if (unknown.length > 0) throw new Error(`route files without a route: ${unknown.join(", ")}`);
      writeFileSync(join(outDir, PRELOADS_FILE), `${JSON.stringify(preloads, null, 2)}\n`);

      let written = 0;
      for (const file of filesUnder(outDir)) {
        if (!COMPRESSIBLE.test(file) || statSync(file).size < MIN_BYTES) continue;
        // The server renders the pages (index.html, req.html) per answer, as they carry a nonce,
        // and compresses them then.
        if (dirname(file) === outDir && file.endsWith(".html")) continue;
        const content = readFileSync(file);
        const brotli = brotliCompressSync(content, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
          },
        });
        const gzip = gzipSync(content, { level: constants.Z_BEST_COMPRESSION });
        if (brotli.length < content.length) writeFileSync(`${file}.br`, brotli);
        if (gzip.length < content.length) writeFileSync(`${file}.gz`, gzip);
        written += 1;
      }
      config.logger.info(
        `pre-compressed ${written} files (br, gz) in ${relative(config.root, outDir) || "."}; ${patterns.length} routes in ${ROUTES_FILE}`,
      );
    },
  };
}

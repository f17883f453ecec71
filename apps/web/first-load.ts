import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

/** One chunk of Vite's build manifest (`build.manifest`). */
interface ManifestChunk {
  file: string;
  imports?: string[];
}

/** What a first visit of a page loads: its entry, its route files (layouts first) and what their loaders import. */
export interface RoutePage {
  path: string;
  /** The HTML the server sends for the page: the app's, or the page's own entry. */
  entry: "index.html" | "req.html";
  /** Route modules from the root down, as keys of the manifest without the `?tsr-split=` part. */
  routeFiles: string[];
  /** Modules the route chain imports lazily before the page renders (loaders, beforeLoad). */
  loaderImports?: string[];
  /** Gzipped KB the first load may weigh. */
  budgetKb: number;
}

export const PAGES: RoutePage[] = [
  {
    path: "/req",
    // Its own entry, without the router: no route files.
    entry: "req.html",
    routeFiles: [],
    budgetKb: 100,
  },
  {
    path: "/dashboard",
    entry: "index.html",
    routeFiles: [
      "src/routes/__root.tsx",
      "src/routes/_authenticated/route.tsx",
      "src/routes/_authenticated/dashboard/index.tsx",
    ],
    loaderImports: ["src/features/shell/api/load-current-tenant.ts"],
    budgetKb: 250,
  },
];

/** Split parts of a route that render on a first visit (not the not-found or error screens). */
const FIRST_VISIT_SPLITS = /[?&]tsr-split=(component|loader)/;

/**
 * The JavaScript files a first visit of `page` loads and their gzipped size (level 9, as the
 * server's pre-compressed copies): the page's entry with everything it imports statically, plus the
 * split components and loaders of the page's routes with what they import. Chunks a page loads
 * later by itself (React.lazy parts such as a chart) are not counted.
 */
export function firstLoadOf(distDir: string, page: RoutePage): { files: string[]; gzipKb: number } {
  const manifest = JSON.parse(readFileSync(join(distDir, ".vite", "manifest.json"), "utf8")) as Record<
    string,
    ManifestChunk
  >;
  const roots = [page.entry, ...(page.loaderImports ?? [])];
  for (const key of Object.keys(manifest)) {
    const [file] = key.split("?");
    if (page.routeFiles.includes(file ?? "") && (key === file || FIRST_VISIT_SPLITS.test(key)))
      roots.push(key);
  }
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const key = stack.pop() as string;
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) continue;
    seen.add(key);
    stack.push(...(chunk.imports ?? []));
  }
  const files = [...new Set([...seen].map((key) => manifest[key]?.file as string))].filter((f) =>
    f.endsWith(".js"),
  );
  const bytes = files.reduce(
    (sum, file) => sum + gzipSync(readFileSync(join(distDir, file)), { level: 9 }).length,
    0,
  );
  return { files, gzipKb: bytes / 1024 };
}

/**
 * What the server announces in a page's head so the browser fetches it beside the page's entry,
 * rather than after the entry has run: the code of the route at the address (its split component
 * and loader, the layouts above it, and what they import), and for a page with its own entry the
 * parts it loads as soon as its address carries a key (`/req?k=KEY`: the text block and the scope
 * picker).
 */
export const PRELOADS_FILE = "preloads.json";

export interface PagePreloads {
  /** Route pattern (`/policies/$policyId`) -> asset paths (`/assets/x.js`). */
  routes: Record<string, string[]>;
  /** Own-entry page (`/req`) -> asset paths it loads when its address names a key (`?k=`). */
  withKey: Record<string, string[]>;
}

/** One chunk of Vite's build manifest (`build.manifest`). */
export interface ManifestChunk {
  file: string;
  name?: string;
  imports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const ROUTES_DIR = "src/routes/";
/** Split parts of a route that render on a first visit (not the not-found or error screens). */
const FIRST_VISIT_SPLIT = /\?tsr-split=(component|loader)$/;

/** The manifest keys `roots` import statically, directly or not, the roots included. */
function staticClosure(manifest: Manifest, roots: string[]): Set<string> {
  const seen = new Set<string>();
  const pending = [...roots];
  for (let key = pending.pop(); key !== undefined; key = pending.pop()) {
    if (seen.has(key) || !manifest[key]) continue;
    seen.add(key);
    pending.push(...(manifest[key]?.imports ?? []));
  }
  return seen;
}

/**
 * The URL pattern of a route file, as the router's file naming gives it: `_name` folders are
 * layouts without a segment, `index` and `route` name their folder's path, `$id` a parameter.
 */
export function patternOfRouteFile(file: string): string {
  const parts = file
    .slice(ROUTES_DIR.length)
    .replace(/\.tsx?$/, "")
    .split("/");
  const last = parts.at(-1);
  if (last === "index" || last === "route" || last === "__root") parts.pop();
  const segments = parts.filter((part) => !part.startsWith("_"));
  return `/${segments.join("/")}`;
}

/** The layout files above a route file, root first: `__root` and every enclosing `route.tsx`. */
function layoutsOf(file: string, routeFiles: Set<string>): string[] {
  const dirs = file.slice(ROUTES_DIR.length).split("/").slice(0, -1);
  const layouts = [`${ROUTES_DIR}__root.tsx`];
  for (let depth = 1; depth <= dirs.length; depth++) {
    layouts.push(`${ROUTES_DIR}${dirs.slice(0, depth).join("/")}/route.tsx`);
  }
  return layouts.filter((layout) => layout !== file && routeFiles.has(layout));
}

export function pagePreloadsOf(
  manifest: Manifest,
  options: {
    appEntry: string;
    withKey: Record<string, { entry: string; parts: string[] }>;
    /** Route file -> modules its beforeLoad or loader imports on demand (not in its split parts). */
    loaderImports?: Record<string, string[]>;
  },
): PagePreloads {
  const splitsOf = new Map<string, string[]>();
  for (const key of Object.keys(manifest)) {
    if (!key.startsWith(ROUTES_DIR) || !FIRST_VISIT_SPLIT.test(key)) continue;
    const file = key.split("?", 1)[0] as string;
    splitsOf.set(file, [...(splitsOf.get(file) ?? []), key]);
  }
  const routeFiles = new Set(splitsOf.keys());
  const toPaths = (keys: Iterable<string>, without: Set<string>) =>
    [...keys]
      .filter((key) => !without.has(key))
      .map((key) => `/${manifest[key]?.file}`)
      .filter((path) => path.endsWith(".js"))
      .sort();

  const appFirstLoad = staticClosure(manifest, [options.appEntry]);
  const routes: Record<string, string[]> = {};
  for (const file of routeFiles) {
    if (/\/route\.tsx?$/.test(file) || file.endsWith("__root.tsx")) continue;
    const chain = [...layoutsOf(file, routeFiles), file].flatMap((f) => [
      ...(splitsOf.get(f) ?? []),
      ...(options.loaderImports?.[f] ?? []),
    ]);
    routes[patternOfRouteFile(file)] = toPaths(staticClosure(manifest, chain), appFirstLoad);
  }

  const withKey: Record<string, string[]> = {};
  for (const [page, { entry, parts }] of Object.entries(options.withKey)) {
    const roots = Object.keys(manifest).filter((key) => {
      const chunk = manifest[key];
      return parts.includes(key) || (chunk?.name !== undefined && parts.includes(chunk.name));
    });
    if (roots.length !== parts.length)
      throw new Error(`${page}: found ${roots.length} of the ${parts.length} parts named in the manifest`);
    withKey[page] = toPaths(staticClosure(manifest, roots), staticClosure(manifest, [entry]));
  }
  return { routes, withKey };
}

import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { ChunkingContext, CodeSplittingGroup } from "rolldown";

const source = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

/**
 * A package index that re-exports the whole package (the icon set, the Radix collection). Following
 * it would count every icon and primitive as imported; the bundler keeps only those used.
 */
const reExportsAll =
  /node_modules[\\/](lucide-react|radix-ui)[\\/]dist[\\/](esm[\\/]lucide-react|index)\.m?js$/;
const iconIndex = /node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/]lucide-react\.m?js$/;

/** The names a module imports from the icon set (`import { KeyRoundIcon as Key } from "lucide-react"`). */
function iconNamesOf(code: string): string[] {
  return [...code.matchAll(/import\s*\{([^}]*)\}\s*from\s*["']lucide-react["']/g)].flatMap((match) =>
    (match[1] ?? "")
      .split(",")
      .map((part) => part.trim().split(/\s+as\s+/)[0] ?? "")
      .filter(Boolean),
  );
}

/** Icon name -> the icon's own module, from the icon set's index (`export { default as X } from './icons/x.mjs'`). */
function iconFilesOf(indexId: string, indexCode: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const match of indexCode.matchAll(/export\s*\{([^}]*)\}\s*from\s*'(\.\/icons\/[^']+)'/g)) {
    const file = resolve(dirname(indexId), match[2] ?? "");
    for (const part of (match[1] ?? "").split(",")) {
      const name = part.trim().split(/\s+as\s+/)[1];
      if (name) files.set(name, file);
    }
  }
  return files;
}

/**
 * The modules `roots` import, directly or not; not what they load later with `import()`. Of the
 * icon set, the icons they name: each is its own module, which would otherwise be a file of its own
 * (a few hundred bytes, one more request on a first visit).
 */
function staticImportsOf(ctx: ChunkingContext, roots: string[]): Set<string> {
  const graph = new Set<string>();
  let icons: Map<string, string> | undefined;
  const pending = [...roots];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    if (graph.has(id)) continue;
    graph.add(id);
    const info = ctx.getModuleInfo(id);
    if (reExportsAll.test(id)) continue;
    const imported = info?.importedIds ?? [];
    pending.push(...imported);
    const index = imported.find((dep) => iconIndex.test(dep));
    if (index && info?.code) {
      icons ??= iconFilesOf(index, ctx.getModuleInfo(index)?.code ?? "");
      for (const name of iconNamesOf(info.code)) {
        const file = icons.get(name);
        if (file) pending.push(file);
      }
    }
  }
  return graph;
}

/**
 * One chunk for the modules `roots` import, directly or not, and something else imports too (what
 * one page alone uses stays with that page). Groups of a higher priority take their modules first.
 */
function firstVisitGroup(name: string, roots: string[], priority: number): CodeSplittingGroup {
  // Worked out once per build, when the bundler first asks.
  let graph: Set<string> | undefined;
  return {
    debugName: name,
    name: (id, ctx) => {
      graph ??= staticImportsOf(ctx, roots.map(source));
      return graph.has(id) ? name : null;
    },
    minShareCount: 2,
    priority,
  };
}

/**
 * How the build groups modules into chunks. On a first visit every file is a request queued on one
 * of the six connections a browser opens to the server, so what a page needs before it can paint
 * comes in a few larger files rather than dozens of small ones:
 * - react: what every page needs (React, the class-name helpers, the icon set's runtime, Vite's
 *   module preload helpers);
 * - framework: the router, the query library and zod, which only the app loads, and the app's
 *   search parameter helpers built on them;
 * - waiver-page-shared: what the public waiver page shares with the app (form fields, helpers);
 * - text-block: the Markdown renderer of policy descriptions, which the waiver page loads as soon
 *   as the address names a key;
 * - signed-in-shell: the signed-in area's frame (navigation, user menu, tenant check) and the RPC
 *   runtime it calls, which every signed-in page loads before its own code;
 * - signed-in-common: what the dashboard, the landing page after sign-in, shares with other pages
 *   (page header, empty state, the contracts of the services it reads, icons), in one file rather
 *   than a dozen of a few hundred bytes each.
 * Each icon is a module of its own; the groups take the icons their roots name, which would
 * otherwise be a file each.
 */
export function chunkGroups(): CodeSplittingGroup[] {
  return [
    {
      name: "react",
      test: /node_modules[\\/](react|react-dom|scheduler|tailwind-merge|clsx|class-variance-authority)[\\/]|node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/](Icon|createLucideIcon|context|shared[\\/])|^\0vite[\\/](modulepreload-polyfill|preload-helper)/,
      priority: 5,
    },
    {
      name: "framework",
      test: /node_modules[\\/](@tanstack[\\/](react-router|router-core|history|store|react-store|query-core|react-query)|zod[\\/]v4[\\/](core|mini))[\\/]|[\\/]src[\\/]lib[\\/]search-params\.ts$/,
      priority: 4,
    },
    firstVisitGroup("waiver-page-shared", ["req-main.tsx"], 3),
    firstVisitGroup("text-block", ["components/text-block.tsx"], 2),
    firstVisitGroup(
      "signed-in-shell",
      [
        "features/shell/components/authenticated-layout.tsx",
        "features/shell/components/account-only-layout.tsx",
        "features/shell/api/load-current-tenant.ts",
      ],
      1,
    ),
    firstVisitGroup(
      "signed-in-common",
      ["features/dashboard/components/dashboard-page.tsx", "features/dashboard/api/dashboard-queries.ts"],
      0,
    ),
  ];
}

import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The server's layout rules (docs/architecture.md), checked on the source: the top-level folders
 * of src/ import one way, down the layers below; nothing imports in a circle (files, modules,
 * folders); imports go `rpc -> domain -> repository`; only repositories run SQL; and an RPC file
 * is reached only through its service map; every RPC handler has one shape, named after its
 * method and called as `(deps, req, ctx)`; and a module uses another only through its api file.
 */
const src = resolve(import.meta.dirname, "../src");
const MAX_LINES = 400;

/**
 * The layers of src/, top first. A file imports files of its own top-level folder (or itself, for
 * a file at the root) or of a lower layer; never a higher layer, nor another folder of its own.
 */
const LAYERS: readonly (readonly string[])[] = [
  ["main.ts"],
  // Start-up: configuration, the HTTP server, the service map, workers, how calls reach handlers.
  ["boot"],
  ["modules"],
  // The identity provider; what it needs of tenants comes from boot/ as functions.
  ["auth"],
  // Job definitions (payload, enqueue, worker over functions it is given); what every handler uses.
  ["jobs", "rpc"],
  ["cloud", "http", "mail", "messaging"],
  ["db", "lib", "logger.ts", "log-destination.ts", "secrets.ts"],
];

interface SourceFile {
  path: string;
  text: string;
  /** The files it imports, as paths under src/. */
  imports: string[];
}

const IMPORT = /^(?:import|export)[^;]*?from "(\.{1,2}\/[^"]+)"|\bimport\("(\.{1,2}\/[^"]+)"\)/gms;

function sourceFiles(dir: string): SourceFile[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return name === "migrations" ? [] : sourceFiles(full);
    if (!name.endsWith(".ts") || name.endsWith(".test.ts")) return [];
    const text = readFileSync(full, "utf8");
    const imports = [...text.matchAll(IMPORT)].map((m) =>
      relative(src, resolve(dirname(full), (m[1] ?? m[2]) as string)).concat(".ts"),
    );
    return [{ path: relative(src, full), text, imports }];
  });
}

const files = sourceFiles(src);
/**
 * A `<name>-schema.ts` file declares tables with drizzle. It sits in the folder that owns its
 * tables (test/table-ownership.test.ts) but belongs to the `db` layer and to no module: it imports
 * only `db/` and other schema files, and any file may read a table through it (only the owner writes).
 */
const isSchema = (path: string) => /-schema\.ts$/.test(path);
const moduleOf = (path: string) => (isSchema(path) ? undefined : /^modules\/([^/]+)\//.exec(path)?.[1]);
const isRepository = (path: string) => /-repository\.ts$/.test(path);
/** `rpc/list-bundle.ts` handles `listBundle`; `export`, a reserved word, is `export$`. */
const handlerName = (rpcPath: string) => {
  const method = (/([^/]+)\.ts$/.exec(rpcPath)?.[1] ?? "").replace(/-(\w)/g, (_, c: string) =>
    c.toUpperCase(),
  );
  return method === "export" ? "export$" : method;
};
const asPattern = (text: string) => text.replace(/[$]/g, "\\$&");
/** The top-level folder of src/ a file is in, or the file itself at the root; `db` for a schema file. */
const topOf = (path: string) => (isSchema(path) ? "db" : (path.split("/")[0] as string));

/** Each group of nodes that reach each other through the edges (a circle), with the edges inside it. */
function circlesOf(edges: Map<string, Set<string>>): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const circles: string[] = [];
  const connect = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (stack.includes(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const members: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      members.push(member);
    } while (member !== node);
    if (members.length < 2) return;
    const inside = members.flatMap((from) =>
      [...(edges.get(from) ?? [])].filter((to) => members.includes(to)).map((to) => `${from} -> ${to}`),
    );
    circles.push(inside.sort().join(", "));
  };
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) connect(node);
  return circles;
}

/** The edges between the groups `groupOf` puts files in (files in no group, and imports inside one, left out). */
function edgesBetween(groupOf: (path: string) => string | undefined): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const file of files) {
    const from = groupOf(file.path);
    if (!from) continue;
    for (const target of file.imports) {
      const to = groupOf(target);
      if (to && to !== from) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
  }
  return edges;
}

describe("server layout", () => {
  it("keeps every source file under 400 lines", () => {
    const long = files
      .map((f) => ({ path: f.path, lines: f.text.split("\n").length }))
      .filter((f) => f.lines > MAX_LINES);
    expect(long).toEqual([]);
  });

  it("places every top-level folder and root file of src/ in one layer", () => {
    const placed = LAYERS.flat();
    const tops = [...new Set(files.map((f) => topOf(f.path)))];
    expect(tops.filter((top) => !placed.includes(top)).sort()).toEqual([]);
    expect(placed.filter((top) => !tops.includes(top))).toEqual([]);
    expect(placed.length).toBe(new Set(placed).size);
  });

  it("imports only down the layers: no import points back up, nor across a layer", () => {
    const layerOf = (top: string) => LAYERS.findIndex((layer) => layer.includes(top));
    const wrong = files.flatMap((file) => {
      const from = topOf(file.path);
      return file.imports
        .filter((target) => topOf(target) !== from && layerOf(topOf(target)) <= layerOf(from))
        .map((target) => `${file.path} imports ${target}`);
    });
    expect(wrong).toEqual([]);
  });

  it("has no import cycle between the top-level folders of src/", () => {
    expect(circlesOf(edgesBetween(topOf))).toEqual([]);
  });

  it("has no import cycle between modules", () => {
    expect(circlesOf(edgesBetween(moduleOf))).toEqual([]);
  });

  it("has no import cycle between files", () => {
    expect(circlesOf(edgesBetween((path) => path))).toEqual([]);
  });

  it("reaches an RPC file only through its module's service map", () => {
    const wrong = files.flatMap((file) =>
      file.imports
        .filter((target) => /^modules\/[^/]+\/rpc\//.test(target))
        .filter((target) => {
          const owner = moduleOf(target);
          const inOwnRpc = file.path.startsWith(`modules/${owner}/rpc/`);
          const isServiceMap = file.path.startsWith(`modules/${owner}/`) && file.path.endsWith("-service.ts");
          return !inOwnRpc && !isServiceMap;
        })
        .map((target) => `${file.path} imports ${target}`),
    );
    expect(wrong).toEqual([]);
  });

  it("keeps repositories free of RPC code", () => {
    const wrong = files
      .filter((file) => isRepository(file.path))
      .flatMap((file) =>
        file.imports
          .filter((target) => !isSchema(target) && /\/rpc\/|-service$|^rpc\//.test(target))
          .map((target) => `${file.path} imports ${target}`),
      );
    expect(wrong).toEqual([]);
  });

  it("runs SQL only in repositories", () => {
    const query = /\b(?:db|tx)\s*\.\s*(?:select|selectDistinct|insert|update|delete|execute)\s*\(/;
    const wrong = files
      .filter((file) => file.path.startsWith("modules/") && !isRepository(file.path))
      .filter((file) => query.test(file.text))
      .map((file) => file.path);
    expect(wrong).toEqual([]);
  });

  it("names each RPC handler after its method and calls it as (deps, req, ctx)", () => {
    const rpcFiles = files.filter((file) => /^modules\/[^/]+\/rpc\/[^/]+\.ts$/.test(file.path));
    const badHandlers = rpcFiles
      .filter((file) => {
        const name = asPattern(handlerName(file.path));
        const shape = new RegExp(
          `^export async function ${name}\\(\\s*(?:\\w+|\\{[^}]*\\}): \\w+ServiceDeps,\\s*_?req: \\w+,\\s*_?ctx: HandlerContext,?\\s*\\)`,
          "m",
        );
        return !shape.test(file.text);
      })
      .map(
        (file) =>
          `${file.path} does not export ${handlerName(file.path)}(deps: <Module>ServiceDeps, req, ctx)`,
      );
    const badCalls = files
      .filter((file) => /^modules\/[^/]+\/[^/]+-service\.ts$/.test(file.path))
      .flatMap((file) =>
        file.imports
          .filter((target) => target.startsWith(`${dirname(file.path)}/rpc/`))
          .filter((target) => {
            const name = asPattern(handlerName(target));
            return !new RegExp(`\\b${name}\\(deps, req, ctx\\)`).test(file.text);
          })
          .map((target) => `${file.path} does not call ${handlerName(target)}(deps, req, ctx)`),
      );
    expect([...badHandlers, ...badCalls]).toEqual([]);
  });

  it("keys services by their generated descriptors, not by names typed out", () => {
    const wrong = files
      .filter((file) => /"palisade\.\w+\.v1\.\w+Service"/.test(file.text))
      .map((file) => file.path);
    expect(wrong).toEqual([]);
  });
  it("lets a module use another only through its <module>-api.ts", () => {
    const wrong = files.flatMap((file) => {
      const from = moduleOf(file.path);
      if (!from) return [];
      return file.imports
        .filter((target) => {
          const to = moduleOf(target);
          return to !== undefined && to !== from && target !== `modules/${to}/${to}-api.ts`;
        })
        .map((target) => `${file.path} imports ${target}`);
    });
    expect(wrong).toEqual([]);
  });
});

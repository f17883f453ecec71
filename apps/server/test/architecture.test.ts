import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The server's layout rules (docs/architecture.md), checked on the source: imports go
 * `rpc -> domain -> repository`, modules do not import each other in a circle, only
 * repositories run SQL, an RPC file is reached only through its service map, and every RPC
 * handler has one shape: named after its method, called as `(deps, req, ctx)`.
 */
const src = resolve(import.meta.dirname, "../src");
const MAX_LINES = 400;

interface SourceFile {
  path: string;
  text: string;
  imports: string[];
}

function sourceFiles(dir: string): SourceFile[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return name === "migrations" ? [] : sourceFiles(full);
    if (!name.endsWith(".ts") || name.endsWith(".test.ts")) return [];
    const text = readFileSync(full, "utf8");
    const imports = [...text.matchAll(/^(?:import|export)[^;]*?from "(\.{1,2}\/[^"]+)"/gms)].map((m) =>
      relative(src, resolve(dirname(full), m[1] as string)),
    );
    return [{ path: relative(src, full), text, imports }];
  });
}

const files = sourceFiles(src);
const moduleOf = (path: string) => /^modules\/([^/]+)\//.exec(path)?.[1];
const isRepository = (path: string) => /-repository\.ts$/.test(path);
/** `rpc/list-bundle.ts` handles `listBundle`; `export`, a reserved word, is `export$`. */
const handlerName = (rpcPath: string) => {
  const method = (/([^/]+)\.ts$/.exec(rpcPath)?.[1] ?? "").replace(/-(\w)/g, (_, c: string) =>
    c.toUpperCase(),
  );
  return method === "export" ? "export$" : method;
};
const asPattern = (text: string) => text.replace(/[$]/g, "\\$&");

describe("server layout", () => {
  it("keeps every source file under 400 lines", () => {
    const long = files
      .map((f) => ({ path: f.path, lines: f.text.split("\n").length }))
      .filter((f) => f.lines > MAX_LINES);
    expect(long).toEqual([]);
  });

  it("has no import cycle between modules", () => {
    const edges = new Map<string, Set<string>>();
    for (const file of files) {
      const from = moduleOf(file.path);
      if (!from) continue;
      for (const target of file.imports) {
        const to = moduleOf(`${target}.ts`);
        if (to && to !== from) edges.set(from, (edges.get(from) ?? new Set()).add(to));
      }
    }
    const cycles: string[] = [];
    const visit = (node: string, path: string[]) => {
      for (const next of edges.get(node) ?? []) {
        if (next === path[0]) cycles.push([...path, next].join(" -> "));
        else if (!path.includes(next) && next > path[0]!) visit(next, [...path, next]);
      }
    };
    for (const node of edges.keys()) visit(node, [node]);
    expect(cycles).toEqual([]);
  });

  it("reaches an RPC file only through its module's service map", () => {
    const wrong = files.flatMap((file) =>
      file.imports
        .filter((target) => /^modules\/[^/]+\/rpc\//.test(target))
        .filter((target) => {
          const owner = moduleOf(`${target}.ts`);
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
          .filter((target) => /\/rpc\/|-service$|^rpc\//.test(target))
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
            const name = asPattern(handlerName(`${target}.ts`));
            return !new RegExp(`\\b${name}\\(deps, req, ctx\\)`).test(file.text);
          })
          .map((target) => `${file.path} does not call ${handlerName(`${target}.ts`)}(deps, req, ctx)`),
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
          const to = moduleOf(`${target}.ts`);
          return to !== undefined && to !== from && target !== `modules/${to}/${to}-api`;
        })
        .map((target) => `${file.path} imports ${target}`);
    });
    expect(wrong).toEqual([]);
  });
});

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { TABLE_OWNERS } from "../src/db/table-owners";

/**
 * One owner per table (docs/architecture.md): only the folder that owns a table inserts, updates
 * or deletes its rows, through drizzle or raw SQL; everyone else asks the owner.
 */
const src = resolve(import.meta.dirname, "../src");

interface SourceFile {
  path: string;
  text: string;
}

function sourceFiles(dir: string): SourceFile[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return name === "migrations" ? [] : sourceFiles(full);
    if (!name.endsWith(".ts") || name.endsWith(".test.ts")) return [];
    return [{ path: relative(src, full), text: readFileSync(full, "utf8") }];
  });
}

interface TableDeclaration {
  /** The export's name in its file. */
  name: string;
  /** The table's SQL name. */
  table: string;
  /** The file that declares it, under src/. */
  path: string;
}

/** Every table a source file declares with drizzle (`export const x = pgTable("x"`). */
function declaredTables(files: SourceFile[]): TableDeclaration[] {
  return files.flatMap((file) =>
    [...file.text.matchAll(/export const (\w+) = pgTable\(\s*"(\w+)"/g)].map((match) => ({
      name: match[1]!,
      table: match[2]!,
      path: file.path,
    })),
  );
}

/**
 * Tables declared outside their owner's folder, or in a file drizzle-kit does not read (its
 * configuration takes every `src/**\/*-schema.ts`).
 */
function misplacedTables(declarations: TableDeclaration[], owners: Record<string, string>): string[] {
  return declarations
    .filter(({ table, path }) => {
      const owner = owners[table];
      return owner !== undefined && (!path.startsWith(`${owner}/`) || !path.endsWith("-schema.ts"));
    })
    .map(({ table, path }) => `${table} is declared in ${path}, not in a ${owners[table]}/*-schema.ts file`);
}

const declarations = declaredTables(sourceFiles(src));
/** Export name -> SQL name of every table. */
const tables = new Map(declarations.map(({ name, table }) => [name, table]));

/** The tables a file writes: drizzle calls on imported schema tables, and raw SQL statements. */
function writtenTables(text: string): Set<string> {
  const written = new Set<string>();
  const imported = new Map<string, string>();
  for (const match of text.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*"[^"]*-schema"/g)) {
    for (const part of match[1]!.split(",")) {
      const [name, alias] = part.trim().split(/\s+as\s+/);
      if (name && tables.has(name)) imported.set(alias ?? name, tables.get(name)!);
    }
  }
  for (const match of text.matchAll(/\.(?:insert|update|delete)\(\s*(\w+)\s*\)/g)) {
    const table = imported.get(match[1]!);
    if (table) written.add(table);
  }
  for (const match of text.matchAll(/\b(?:insert\s+into|update|delete\s+from)\s+"?(\w+)"?/gi)) {
    if ([...tables.values()].includes(match[1]!)) written.add(match[1]!);
  }
  return written;
}

describe("table ownership", () => {
  it("names an owner for every table of the schema", () => {
    expect([...tables.values()].filter((table) => !(table in TABLE_OWNERS)).sort()).toEqual([]);
    expect(Object.keys(TABLE_OWNERS).filter((table) => ![...tables.values()].includes(table))).toEqual([]);
  });

  it("declares each table in a schema file in its owner's folder", () => {
    expect(misplacedTables(declarations, TABLE_OWNERS)).toEqual([]);
  });

  it("finds a table declared outside its owner's folder", () => {
    const declared = (path: string) => [{ name: "waivers", table: "waivers", path }];
    const owners = { waivers: "modules/waiver" };
    expect(misplacedTables(declared("modules/waiver/waiver-schema.ts"), owners)).toEqual([]);
    expect(misplacedTables(declared("modules/deployment/deployment-schema.ts"), owners)).toEqual([
      "waivers is declared in modules/deployment/deployment-schema.ts, not in a modules/waiver/*-schema.ts file",
    ]);
    expect(misplacedTables(declared("modules/waiver/waiver-tables.ts"), owners)).toHaveLength(1);
  });

  it("lets only a table's owner write it", () => {
    const wrong = sourceFiles(src).flatMap((file) =>
      [...writtenTables(file.text)]
        .filter((table) => !file.path.startsWith(`${TABLE_OWNERS[table]}/`))
        .map((table) => `${file.path} writes ${table} (owned by ${TABLE_OWNERS[table]})`),
    );
    expect(wrong).toEqual([]);
  });

  it("finds a write from outside the owner, by drizzle or by SQL", () => {
    const drizzle =
      'import { member as m } from "../tenant/organization-schema";\nawait tx.update(m).set({ role });';
    const raw = "await db.execute(sql`delete from waivers where id = $1`);";
    const local = "this.sessions.delete(session);";
    expect([...writtenTables(drizzle)]).toEqual(["member"]);
    expect([...writtenTables(raw)]).toEqual(["waivers"]);
    expect([...writtenTables(local)]).toEqual([]);
  });
});

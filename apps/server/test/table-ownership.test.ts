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

/** Export name -> SQL name of every table the schema folder declares. */
function schemaTables(): Map<string, string> {
  const tables = new Map<string, string>();
  for (const file of sourceFiles(join(src, "db/schema"))) {
    for (const match of file.text.matchAll(/export const (\w+) = pgTable\(\s*"(\w+)"/g))
      tables.set(match[1]!, match[2]!);
  }
  return tables;
}

const tables = schemaTables();

/** The tables a file writes: drizzle calls on imported schema tables, and raw SQL statements. */
function writtenTables(text: string): Set<string> {
  const written = new Set<string>();
  const imported = new Map<string, string>();
  for (const match of text.matchAll(
    /import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*"[^"]*\/db\/schema\/[^"]*"/g,
  )) {
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

  it("lets only a table's owner write it", () => {
    const wrong = sourceFiles(src).flatMap((file) =>
      [...writtenTables(file.text)]
        .filter((table) => !file.path.startsWith(`${TABLE_OWNERS[table]}/`))
        .map((table) => `${file.path} writes ${table} (owned by ${TABLE_OWNERS[table]})`),
    );
    expect(wrong).toEqual([]);
  });

  it("finds a write from outside the owner, by drizzle or by SQL", () => {
    const drizzle = 'import { member as m } from "../../db/schema/auth";\nawait tx.update(m).set({ role });';
    const raw = "await db.execute(sql`delete from waivers where id = $1`);";
    const local = "this.sessions.delete(session);";
    expect([...writtenTables(drizzle)]).toEqual(["member"]);
    expect([...writtenTables(raw)]).toEqual(["waivers"]);
    expect([...writtenTables(local)]).toEqual([]);
  });
});

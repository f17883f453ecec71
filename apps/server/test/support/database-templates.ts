import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { openDatabase } from "../../src/db/database";

/**
 * Migrated, empty databases that test databases are copied from, made once per test run: a new
 * embedded database's initdb and the migrations are most of a test server's start-up, and every
 * test server would otherwise repeat them. Each test still gets a database of its own.
 */
export interface DatabaseTemplates {
  /** A migrated PGlite data directory (closed), copied into each test server's DATA_DIR. */
  pgliteDir: string;
  /** A migrated PostgreSQL database that `CREATE DATABASE … TEMPLATE` copies, when one is reachable. */
  postgresName?: string;
  drop(): Promise<void>;
}

export async function createDatabaseTemplates(
  adminUrl = process.env.TEST_DATABASE_URL,
): Promise<DatabaseTemplates> {
  const root = mkdtempSync(join(tmpdir(), "palisade-template-"));
  const embedded = await openDatabase({ dataDir: root });
  await embedded.migrate();
  await embedded.close();

  let postgresName: string | undefined;
  if (adminUrl) {
    postgresName = `palisade_template_${process.pid}`;
    await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${postgresName} WITH (FORCE)`);
    await adminQuery(adminUrl, `CREATE DATABASE ${postgresName}`);
    const server = await openDatabase({ databaseUrl: databaseUrlOf(adminUrl, postgresName), dataDir: root });
    await server.migrate();
    await server.close();
  }
  return {
    pgliteDir: join(root, "db"),
    postgresName,
    async drop() {
      rmSync(root, { recursive: true, force: true });
      if (adminUrl && postgresName)
        await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${postgresName} WITH (FORCE)`);
    },
  };
}

export function databaseUrlOf(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

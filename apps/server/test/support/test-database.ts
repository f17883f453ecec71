import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inject } from "vitest";
import { adminQuery, databaseUrlOf } from "./database-templates";

export type Engine = "pglite" | "postgres";

declare module "vitest" {
  export interface ProvidedContext {
    /** What each test database is copied from (made by global-setup.ts). */
    pgliteTemplate: string;
    postgresTemplate: string | undefined;
  }
}

/** The engines to run integration tests on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const engines: Engine[] = process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];

/**
 * The engine for tests whose subject is how a cloud evaluates what Palisade wrote (SCP
 * statements, principal ARNs, the AWS CLI's errors): the database only stores the bundle, and
 * that storing is proven on both engines by deployments.test.ts and waivers.test.ts.
 */
export const cloudEvaluationEngines: Engine[] = ["pglite"];

export interface TestDatabase {
  dataDir: string;
  databaseUrl: string | undefined;
  drop(): Promise<void>;
}

/**
 * A database of its own for a test, dropped afterwards: a copy of the run's migrated template
 * (see database-templates.ts), or with `empty` a database no migration has touched (for tests of
 * what the server does on an empty one).
 */
export async function createTestDatabase(
  engine: Engine,
  options: { empty?: boolean } = {},
): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), "palisade-test-"));
  if (engine === "pglite") {
    const template = options.empty ? undefined : inject("pgliteTemplate");
    if (template) cpSync(template, join(dataDir, "db"), { recursive: true });
    return {
      dataDir,
      databaseUrl: undefined,
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `palisade_test_${randomBytes(6).toString("hex")}`;
  const template = options.empty ? undefined : inject("postgresTemplate");
  await adminQuery(
    adminUrl,
    template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`,
  );
  return {
    dataDir,
    databaseUrl: databaseUrlOf(adminUrl, name),
    async drop() {
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

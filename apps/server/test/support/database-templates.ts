import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { openDatabase } from "../../src/db/database";

/**
 * Migrated, empty databases that test databases are copied from: a new embedded database's
 * initdb and the migrations are most of a test server's start-up, and every test server would
 * otherwise repeat them. Each test still gets a database of its own.
 *
 * A template is made when the run's first test database asks for it, so a run that starts no
 * database makes none. Test files run in separate workers, which share the run's folder
 * (global-setup.ts makes it): the first worker to need a template takes its lock file and makes
 * it, the others wait for its ready file.
 */
export interface TemplatePlaces {
  /** The run's folder: the PGlite template, and each template's lock and ready files. */
  folder: string;
  /** The PostgreSQL database that `CREATE DATABASE … TEMPLATE` copies, once made. */
  postgresName: string;
}

/** The places of this run's templates; nothing is made yet. */
export function templatePlaces(): TemplatePlaces {
  return {
    folder: mkdtempSync(join(tmpdir(), "palisade-template-")),
    postgresName: `palisade_template_${process.pid}`,
  };
}

/** The migrated PGlite data directory (closed) to copy into a test server's DATA_DIR. */
export async function pgliteTemplate(places: TemplatePlaces): Promise<string> {
  const root = join(places.folder, "pglite");
  await once(places.folder, "pglite", async () => {
    rmSync(root, { recursive: true, force: true });
    const embedded = await openDatabase({ dataDir: root });
    await embedded.migrate();
    await embedded.close();
  });
  return join(root, "db");
}

/** The migrated PostgreSQL database to copy, on the server at adminUrl. */
export async function postgresTemplate(places: TemplatePlaces, adminUrl: string): Promise<string> {
  const name = places.postgresName;
  await once(places.folder, "postgres", async () => {
    await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
    const dataDir = join(places.folder, "postgres");
    const server = await openDatabase({ databaseUrl: databaseUrlOf(adminUrl, name), dataDir });
    await server.migrate();
    await server.close();
  });
  return name;
}

/** Removes whatever templates the run made, and its folder. */
export async function dropTemplates(places: TemplatePlaces, adminUrl = process.env.TEST_DATABASE_URL) {
  const begun = existsSync(join(places.folder, "postgres.lock"));
  if (adminUrl && (begun || existsSync(join(places.folder, "postgres.ready"))))
    await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${places.postgresName} WITH (FORCE)`);
  rmSync(places.folder, { recursive: true, force: true });
}

/**
 * Runs make once across the run's workers: the worker that creates `<name>.lock` makes the
 * template and writes `<name>.ready`; the others wait for it. A lock left by a worker that has
 * died (its process is gone) or that failed (it removes its lock) is taken over.
 */
async function once(folder: string, name: string, make: () => Promise<void>): Promise<void> {
  const ready = join(folder, `${name}.ready`);
  const lock = join(folder, `${name}.lock`);
  while (!existsSync(ready)) {
    const held = take(lock);
    if (held === undefined) {
      releaseIfOrphaned(lock);
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    try {
      if (!existsSync(ready)) {
        await make();
        writeFileSync(ready, "");
      }
    } finally {
      closeSync(held);
      rmSync(lock, { force: true });
    }
  }
}

/** The lock's descriptor when this worker created it; undefined when another holds it. */
function take(lock: string): number | undefined {
  try {
    const fd = openSync(lock, "wx");
    writeFileSync(fd, String(process.pid));
    return fd;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return undefined;
    throw error;
  }
}

function releaseIfOrphaned(lock: string) {
  let pid: number;
  try {
    pid = Number(readFileSync(lock, "utf8"));
  } catch {
    return;
  }
  // Empty while its holder is still writing its process id.
  if (!pid) return;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") rmSync(lock, { force: true });
  }
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

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";

export type Database = PgDatabase<PgQueryResultHKT>;

/** The open database: PostgreSQL when a URL is given, otherwise embedded PGlite. */
export interface DatabaseHandle {
  db: Database;
  engine: "postgres" | "pglite";
  /** For pg-boss: the embedded instance, or the connection string. */
  pglite?: PGlite;
  connectionString?: string;
  migrate(): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

const migrationsFolder = new URL("./migrations", import.meta.url).pathname;

export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir: string;
  /** Errors of idle pooled connections (server restart, terminated backend). */
  onConnectionError?: (error: Error) => void;
}): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle connection that dies must not crash the process; the pool replaces it.
    pool.on("error", (error) => options.onConnectionError?.(error));
    const db = drizzlePg(pool) as unknown as Database;
    return {
      db,
      engine: "postgres",
      connectionString: options.databaseUrl,
      migrate: () => migratePg(drizzlePg(pool), { migrationsFolder }),
      ping: () => ping(db),
      close: () => pool.end(),
    };
  }
  const dir = join(options.dataDir, "db");
  mkdirSync(dir, { recursive: true });
  // pg_trgm serves the events' substring search (see the event-search-trigram migration).
  const pglite = await PGlite.create(dir, { extensions: { pg_trgm } });
  const db = drizzlePglite(pglite) as unknown as Database;
  return {
    db,
    engine: "pglite",
    pglite,
    migrate: () => migratePglite(drizzlePglite(pglite), { migrationsFolder }),
    ping: () => ping(db),
    close: () => pglite.close(),
  };
}

async function ping(db: Database): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}

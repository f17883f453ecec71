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

/** An open transaction: what writes that must commit or roll back together take. */
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** The open database: PostgreSQL when a URL is given, otherwise embedded PGlite. */
export interface DatabaseHandle {
  db: Database;
  engine: "postgres" | "pglite";
  /** For pg-boss: the embedded instance, or the connection string. */
  pglite?: PGlite;
  connectionString?: string;
  /** Applies pending migrations; on PostgreSQL one replica at a time (an advisory lock). */
  migrate(): Promise<void>;
  /**
   * Runs start-up work (first tenant, first connectors) while no other replica does: on
   * PostgreSQL under the same advisory lock as the migrations.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Runs work while no other replica runs work under the same key (a PostgreSQL advisory lock
   * held by one pooled connection); PGlite is one process, so the work just runs.
   */
  lock<T>(key: string, work: () => Promise<T>): Promise<T>;
  ping(): Promise<boolean>;
  /**
   * Calls `onMessage` with the payload of every NOTIFY on `channel`, from any replica. On
   * PostgreSQL a dedicated connection listens and reconnects with backoff; `onReconnect` runs
   * after a reconnection, when notifications may have been missed. Returns a stop function.
   */
  listen(
    channel: string,
    onMessage: (payload: string) => void,
    onReconnect?: () => void,
  ): Promise<() => void>;
  close(): Promise<void>;
}

const migrationsFolder = new URL("./migrations", import.meta.url).pathname;

/** Key of the advisory lock held while migrating or setting up ("palisade" in ASCII, as a bigint). */
const STARTUP_LOCK = "8097880098868093029";

export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir: string;
  /** Errors of idle pooled connections (server restart, terminated backend). */
  onConnectionError?: (error: Error) => void;
}): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      // Room for RPCs while jobs hold a connection each for their bundle's lock.
      max: 20,
      // While the database is down, calls fail within seconds instead of queueing forever.
      connectionTimeoutMillis: 5_000,
    });
    // A connection that dies (a restart, a terminated backend) must not crash the process,
    // idle or checked out: the pool listens only to idle connections, and a checked-out one that
    // loses its server between two queries emits "error" with no listener. The work in flight
    // fails with the lost connection's error and the pool replaces the connection.
    pool.on("error", (error) => options.onConnectionError?.(error));
    pool.on("connect", (client) => client.on("error", (error) => options.onConnectionError?.(error)));
    const db = drizzlePg(pool) as unknown as Database;
    return {
      db,
      engine: "postgres",
      connectionString: options.databaseUrl,
      exclusive: (work) => withStartupLock(pool, work),
      lock: (key, work) => withKeyLock(pool, key, work),
      // Two replicas starting at once on an empty database: the second waits, then finds every
      // migration applied.
      migrate: () => withStartupLock(pool, () => migratePg(drizzlePg(pool), { migrationsFolder })),
      ping: () => ping(db),
      listen: (channel, onMessage, onReconnect) =>
        listenPostgres(options.databaseUrl as string, channel, onMessage, onReconnect),
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
    exclusive: (work) => work(),
    lock: (_key, work) => work(),
    ping: () => ping(db),
    // One process: PGlite delivers its own notifications.
    async listen(channel, onMessage) {
      const unlisten = await pglite.listen(channel, onMessage);
      return () => void unlisten().catch(() => {});
    },
    close: () => pglite.close(),
  };
}

async function withStartupLock<T>(pool: pg.Pool, work: () => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let lost: Error | undefined;
  const onLost = (error: Error) => {
    lost ??= error;
  };
  client.on("error", onLost);
  try {
    await client.query("select pg_advisory_lock($1::bigint)", [STARTUP_LOCK]);
    return await work();
  } finally {
    await client.query("select pg_advisory_unlock($1::bigint)", [STARTUP_LOCK]).catch(onLost);
    client.removeListener("error", onLost);
    client.release(lost);
  }
}

/**
 * The work runs while this session holds the key's advisory lock. PostgreSQL releases the lock
 * when the session ends, so if the lock's connection is lost while the work runs, another
 * replica may have run the same work meanwhile: the work's result is then refused with
 * `LockLostError` (a job is retried by the queue; the work under a key is idempotent).
 */
async function withKeyLock<T>(pool: pg.Pool, key: string, work: () => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let held = false;
  let lost: Error | undefined;
  const onLost = (error: Error) => {
    lost ??= error;
  };
  client.on("error", onLost);
  try {
    await client.query("select pg_advisory_lock(hashtextextended($1, 0))", [key]);
    held = true;
    const result = await work();
    if (lost) throw new LockLostError(key, lost);
    return result;
  } finally {
    if (held && !lost)
      await client.query("select pg_advisory_unlock(hashtextextended($1, 0))", [key]).catch(onLost);
    client.removeListener("error", onLost);
    // A connection that failed is closed rather than handed to the next caller.
    client.release(lost);
  }
}

/** The connection holding a work's advisory lock was lost while the work ran. */
export class LockLostError extends Error {
  constructor(key: string, cause: Error) {
    super(`The database connection holding the lock "${key}" was lost: ${cause.message}`, { cause });
    this.name = "LockLostError";
  }
}

async function ping(db: Database): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}

const CHANNEL_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

async function listenPostgres(
  connectionString: string,
  channel: string,
  onMessage: (payload: string) => void,
  onReconnect?: () => void,
): Promise<() => void> {
  if (!CHANNEL_NAME.test(channel)) throw new Error(`not a channel name: ${channel}`);
  let stopped = false;
  let current: pg.Client | undefined;
  let delayMs = 500;
  let timer: NodeJS.Timeout | undefined;

  const retry = () => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void connect(true);
    }, delayMs);
    timer.unref();
    delayMs = Math.min(delayMs * 2, 10_000);
  };

  async function connect(again: boolean): Promise<void> {
    const client = new pg.Client({ connectionString });
    let lost = false;
    const drop = () => {
      if (lost) return;
      lost = true;
      if (current === client) current = undefined;
      client.end().catch(() => {});
      retry();
    };
    client.on("error", drop);
    client.on("end", drop);
    client.on("notification", (message) => {
      if (message.channel === channel) onMessage(message.payload ?? "");
    });
    try {
      await client.connect();
      await client.query(`listen ${channel}`);
    } catch (error) {
      drop();
      if (!again) throw error;
      return;
    }
    if (stopped) {
      lost = true;
      await client.end().catch(() => {});
      return;
    }
    current = client;
    delayMs = 500;
    if (again) onReconnect?.();
  }

  await connect(false);
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    current?.end().catch(() => {});
  };
}

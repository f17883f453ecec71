import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { openDatabase } from "../../apps/server/src/db/database";
import { fillEvents } from "../support/fill-events";
import { type Figure, record } from "../support/results";

/**
 * Resident memory of the server process (VmRSS of the Node process; PostgreSQL's own processes are
 * not counted, PGlite runs inside the server so it is): at idle on an empty database, idle again
 * after restarting on BENCH_MEMORY_EVENTS (1,000,000) stored events and listing them once, and the
 * peak while exporting all of them as CSV (ExportAsync, then downloading the file). Both engines;
 * BENCH_SKIP_PGLITE=1 leaves PGlite out. PostgreSQL at TEST_DATABASE_URL.
 */
const EVENTS = Number(process.env.BENCH_MEMORY_EVENTS ?? 1_000_000);
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const DB_NAME = "palisade_bench_memory";
const ADMIN = { email: "bench@palisade.test", password: "bench password long enough" };
const root = new URL("../..", import.meta.url).pathname;
const figures: Figure[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (address && typeof address === "object" ? resolve(address.port) : reject()));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

async function until<T>(read: () => Promise<T | undefined>, timeoutMs = 300_000, everyMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out");
    await sleep(everyMs);
  }
}

interface Running {
  child: ChildProcess;
  base: string;
  stop(): Promise<void>;
}

const IDLE_CPU_MS = 10_000;

/** CPU time the process used (user and system), in clock ticks of 1/100 s. */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  // utime and stime are fields 14 and 15 of the line; 12 and 13 after the command's closing ")".
  return Number(fields[11]) + Number(fields[12]);
}

/** How much of one core the process uses while nobody calls it: its own timers and job polling. */
async function idleCpuPercent(pid: number): Promise<number> {
  const before = cpuTicks(pid);
  await sleep(IDLE_CPU_MS);
  // 100 ticks a second are one whole core, so ticks a second are its percentage.
  return (cpuTicks(pid) - before) / (IDLE_CPU_MS / 1000);
}

/** The server as its own Node process (no npm or tsx wrapper, so the pid is the server's). */
async function startServer(env: Record<string, string>): Promise<Running> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
    cwd: root,
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: base,
      WEB_DIST: "/nonexistent",
      LOG_LEVEL: "error",
      PALISADE_ADMIN_EMAIL: ADMIN.email,
      PALISADE_ADMIN_PASSWORD: ADMIN.password,
      PALISADE_SANDBOX: "false",
      SANDBOX_PORT: String(await freePort()),
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    await until(async () => ((await fetch(`${base}/healthz`)).ok ? true : undefined), 600_000);
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  return {
    child,
    base,
    async stop() {
      child.kill("SIGTERM");
      await Promise.race([exited, sleep(15_000).then(() => child.kill("SIGKILL"))]);
      await exited;
    },
  };
}

async function signedInCaller(base: string) {
  const signIn = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify(ADMIN),
  });
  if (!signIn.ok) throw new Error(`sign-in: ${signIn.status} ${await signIn.text()}`);
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return async <Res>(method: string, body: unknown): Promise<Res> => {
    const response = await fetch(`${base}/${method}`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie, origin: base },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Res;
  };
}

/** Highest RSS seen while `work` runs, sampled every 100 ms. */
async function peakDuring(pid: number, work: Promise<unknown>): Promise<number> {
  let peak = rssMb(pid);
  let done = false;
  const sampling = (async () => {
    while (!done) {
      peak = Math.max(peak, rssMb(pid));
      await sleep(100);
    }
  })();
  try {
    await work;
  } finally {
    done = true;
    await sampling;
  }
  return peak;
}

async function measure(
  engine: string,
  env: Record<string, string>,
  openDb: () => ReturnType<typeof openDatabase>,
) {
  const add = (figure: string, value: number, unit = "MB") => {
    const f: Figure = {
      group: `memory ${engine}`,
      figure,
      value: Math.round(value),
      unit,
      load: loadavg()[0],
    };
    figures.push(f);
    record(f);
  };
  let server = await startServer(env);
  await sleep(5_000);
  add("server RSS at idle, empty database", rssMb(server.child.pid ?? 0));
  add(
    `server CPU at idle, empty database (share of one core over ${IDLE_CPU_MS / 1000} s)`,
    await idleCpuPercent(server.child.pid ?? 0),
    "%",
  );
  await server.stop();

  const handle = await openDb();
  try {
    const tenants = (await handle.db.execute(sql`select id from organization limit 1`)) as unknown as {
      rows: { id: string }[];
    };
    const tenantId = tenants.rows[0]?.id;
    if (!tenantId) throw new Error("the server created no tenant");
    await fillEvents(handle.db, tenantId, 0, EVENTS, new Date().toISOString());
  } finally {
    await handle.close();
  }

  server = await startServer(env);
  try {
    await measureStored(server, add);
  } finally {
    await server.stop();
  }
}

async function measureStored(server: Running, add: (figure: string, value: number, unit?: string) => void) {
  const pid = server.child.pid ?? 0;
  const call = await signedInCaller(server.base);
  await call("palisade.event.v1.PolicyEventStoreService/List", { pagination: { limit: 30 } });
  await sleep(3_000);
  const millions = `${(EVENTS / 1_000_000).toLocaleString("en")}M`;
  add(`server RSS at idle with ${millions} events stored (after one list)`, rssMb(pid));
  const started = performance.now();
  let bytes = 0;
  const peak = await peakDuring(
    pid,
    (async () => {
      const { presignedUrl } = await call<{ presignedUrl: string }>(
        "palisade.event.v1.PolicyEventStoreService/ExportAsync",
        { format: "EXPORT_FORMAT_CSV" },
      );
      const response = await until(
        async () => {
          const r = await fetch(presignedUrl);
          if (r.ok) return r;
          await r.arrayBuffer();
          return undefined;
        },
        900_000,
        500,
      );
      const reader = response.body?.getReader();
      for (;;) {
        const chunk = await reader?.read();
        if (!chunk || chunk.done) break;
        bytes += chunk.value.length;
      }
    })(),
  );
  const seconds = (performance.now() - started) / 1000;
  add(`server RSS peak during a CSV export of ${millions} events (written and downloaded)`, peak);
  add(
    `CSV export of ${millions} events, ${Math.round(bytes / 1024 / 1024)} MB (queued -> downloaded)`,
    seconds,
    "s",
  );
}

async function withAdmin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

const started = performance.now();
const work = mkdtempSync(join(tmpdir(), "palisade-memory-bench-"));
try {
  await withAdmin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${DB_NAME}`);
  });
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB_NAME}`;
  await measure("PostgreSQL", { DATABASE_URL: url.toString(), DATA_DIR: join(work, "pg") }, () =>
    openDatabase({ databaseUrl: url.toString(), dataDir: tmpdir() }),
  );
  if (!process.env.BENCH_SKIP_PGLITE) {
    const dataDir = join(work, "pglite");
    await measure("PGlite", { DATA_DIR: dataDir }, () => openDatabase({ dataDir }));
  }
} finally {
  await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`)).catch(() => undefined);
  rmSync(work, { recursive: true, force: true });
}

console.log(`\nServer memory (${EVENTS.toLocaleString("en")} events)\n`);
console.log("| group | figure | value | load |");
console.log("|---|---|---|---|");
for (const f of figures)
  console.log(
    `| ${f.group} | ${f.figure} | ${f.value.toLocaleString("en")} ${f.unit} | ${f.load?.toFixed(1)} |`,
  );
console.log(`\n(${Math.round((performance.now() - started) / 1000)} s)`);

import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ListTargetsForPolicyCommand } from "@aws-sdk/client-organizations";
import type { DescService } from "@bufbuild/protobuf";
import { type Client, Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { ExportFormat } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { DeploymentMode } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { PolicyEventStoreService } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { PolicyService } from "@palisade/api/gen/palisade/policy/v1/policy_pb";
import { WaiverService } from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import type { SandboxCloud } from "@palisade/sandbox-cloud/start-sandbox-cloud";
import { and, eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../src/db/database";
import { WAIVER_EXPIRY_JOB } from "../src/jobs/waiver-expiry-job";
import { auditLog } from "../src/modules/audit/audit-schema";
import { connectors } from "../src/modules/connector/connector-schema";
import { organization } from "../src/modules/tenant/organization-schema";
import { waivers } from "../src/modules/waiver/waiver-schema";
import { createRateLimiter, leaseSize } from "../src/rpc/rate-limiter";
import { node, scpsNamed, waitForBundleStatus, waitForHierarchy } from "./support/deployment-helpers";
import { waitFor } from "./support/poll";
import { sandboxOrganizations } from "./support/sandbox-aws-clients";
import { createTestDatabase, type TestDatabase } from "./support/test-database";

const ROOT = new URL("../../../", import.meta.url).pathname;
const PUBLIC_URL = "http://palisade.test";
const ADMIN = { email: "admin@palisade.test", password: "correct horse battery staple" };
const S3_SLUG = "protect-s3-account-public-access-block";
const BURST = 10;

/** Rows of a raw query. */
async function query<T>(db: Database, statement: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(statement)) as unknown as { rows: T[] }).rows;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

interface Proc {
  name: string;
  child: ChildProcess;
  output: string[];
}

function start(name: string, args: string[], env: Record<string, string>): Proc {
  // One process per replica (no tsx wrapper), so kill -9 kills the server itself.
  const child = spawn(process.execPath, ["--import", "tsx", ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: "pipe",
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 200) output.shift();
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  return { name, child, output };
}

async function stop(proc: Proc | undefined, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (!proc || proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  const exited = new Promise((resolve) => proc.child.once("exit", resolve));
  proc.child.kill(signal);
  await exited;
}

async function waitReady(url: string, proc: Proc, timeoutMs = 60_000): Promise<void> {
  await waitFor(
    `${proc.name} to be ready`,
    async () => {
      if (proc.child.exitCode !== null) throw new Error(`${proc.name} exited:\n${proc.output.join("")}`);
      return fetch(url)
        .then((r) => r.ok)
        .catch(() => false);
    },
    timeoutMs,
  ).catch((error: Error) => {
    throw new Error(`${error.message}\n${proc.name} said:\n${proc.output.join("").slice(-4000)}`);
  });
}

/** Waits for a state a user would check; generous, as a shared machine may be slow. */
function until<T>(
  what: string,
  probe: () => Promise<T | undefined | false>,
  timeoutMs = 150_000,
): Promise<T> {
  return waitFor(what, probe, timeoutMs);
}

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  "two replicas on one PostgreSQL",
  { timeout: 240_000 },
  () => {
    let database: TestDatabase;
    let pool: pg.Pool;
    let db: Database;
    let sandboxProc: Proc | undefined;
    let sandboxPort = 0;
    let sandboxDir = "";
    let sandbox: SandboxCloud;
    const replicas: { name: string; url: string; port: number; dataDir: string; proc?: Proc }[] = [];
    let cookie = "";
    /** The replica left running after the failover test. */
    let survivor: (typeof replicas)[number] | undefined;
    let tenantId = "";
    const figures: string[] = [];

    const startSandbox = async () => {
      sandboxProc = start(
        "sandbox",
        [
          "packages/sandbox-cloud/src/cli.ts",
          "serve",
          "--port",
          String(sandboxPort),
          "--data-dir",
          sandboxDir,
          "--no-activity",
        ],
        {},
      );
      await waitReady(`http://127.0.0.1:${sandboxPort}/sandbox/info`, sandboxProc);
    };

    const startReplica = (replica: (typeof replicas)[number]) => {
      const url = new URL(database.databaseUrl as string);
      url.searchParams.set("application_name", replica.name);
      replica.proc = start(replica.name, ["apps/server/src/main.ts"], {
        PORT: String(replica.port),
        HOST: "127.0.0.1",
        DATA_DIR: replica.dataDir,
        DATABASE_URL: url.toString(),
        PUBLIC_URL,
        PALISADE_SECRET_KEY: "a-secret-shared-by-both-replicas-0123456789",
        PALISADE_ADMIN_EMAIL: ADMIN.email,
        PALISADE_ADMIN_PASSWORD: ADMIN.password,
        SANDBOX_URL: `http://127.0.0.1:${sandboxPort}`,
        TRUST_PROXY: "true",
        WEB_DIST: "/nonexistent",
        LOG_LEVEL: "info",
        PUBLIC_RATE_LIMIT_BURST: String(BURST),
        PUBLIC_RATE_LIMIT_PER_SECOND: "0.01",
        CLOUD_RETRY_LIMIT: "2",
        CLOUD_RETRY_DELAY_SECONDS: "1",
        FAILED_DEPLOYMENT_RETRY_SECONDS: "2",
      });
    };

    function client<S extends DescService>(service: S, replica: (typeof replicas)[number]): Client<S> {
      return createClient(
        service,
        createConnectTransport({
          baseUrl: replica.url,
          httpVersion: "1.1",
          interceptors: [
            (next) => (req) => {
              req.header.set("cookie", cookie);
              req.header.set("origin", PUBLIC_URL);
              return next(req);
            },
          ],
        }),
      );
    }

    const scope = async (name: string) => {
      const row = await node(db, tenantId, name);
      return { externalId: row.externalId, connectorId: row.connectorId };
    };

    const syncJobs = (bundleId: string) =>
      query<{ state: string; retry_count: number }>(
        db,
        sql`select state, retry_count from pgboss.job where name = 'deployment.bundle-sync' and data->>'bundleId' = ${bundleId}`,
      );

    // The guardrails deployed to one target share packed SCPs: the first is named after the target.
    const workloadsPack = async () => `palisade-${(await scope("Workloads")).externalId}-0`;
    const scpTargets = async (policyId: string) => {
      const organizations = sandboxOrganizations(sandbox);
      try {
        const out = await organizations.send(new ListTargetsForPolicyCommand({ PolicyId: policyId }));
        return (out.Targets ?? []).map((t) => t.TargetId);
      } finally {
        organizations.destroy();
      }
    };

    beforeAll(async () => {
      database = await createTestDatabase("postgres");
      pool = new pg.Pool({ connectionString: database.databaseUrl, max: 4 });
      db = drizzle(pool) as unknown as Database;
      sandboxDir = mkdtempSync(join(tmpdir(), "palisade-sandbox-"));
      sandboxPort = await freePort();
      await startSandbox();
      const info = (await (
        await fetch(`http://127.0.0.1:${sandboxPort}/sandbox/info`)
      ).json()) as SandboxCloud;
      sandbox = info;
      for (const name of ["replica-a", "replica-b"]) {
        const port = await freePort();
        replicas.push({
          name,
          port,
          url: `http://127.0.0.1:${port}`,
          dataDir: mkdtempSync(join(tmpdir(), `palisade-${name}-`)),
        });
      }
      // Both at once on the empty database.
      const started = performance.now();
      for (const replica of replicas) startReplica(replica);
      // A replica starts in seconds on an idle machine; a shared CI machine may take minutes.
      for (const replica of replicas) await waitReady(`${replica.url}/readyz`, replica.proc as Proc, 360_000);
      figures.push(
        `both replicas ready on an empty database: ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );

      const signIn = await fetch(`${replicas[0]?.url}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: PUBLIC_URL },
        body: JSON.stringify(ADMIN),
      });
      expect(signIn.status).toBe(200);
      cookie = signIn.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
      const [tenant] = await db.select().from(organization);
      tenantId = tenant?.id ?? "";
      await until("the sandbox hierarchies", async () => {
        await waitForHierarchy(db, tenantId);
        return true;
      });
    }, 420_000);

    afterAll(async () => {
      for (const replica of replicas) await stop(replica.proc);
      await stop(sandboxProc);
      await pool?.end();
      await database?.drop();
      for (const replica of replicas) rmSync(replica.dataDir, { recursive: true, force: true });
      if (sandboxDir) rmSync(sandboxDir, { recursive: true, force: true });
      console.log(
        `\nScale-out figures (two replicas, one PostgreSQL, external sandbox):\n  ${figures.join("\n  ")}\n`,
      );
    });

    it("migrates once and sets up once when both start at once", async () => {
      const migrations = readdirSync(join(ROOT, "apps/server/src/db/migrations")).filter((f) =>
        f.endsWith(".sql"),
      );
      const [applied] = await query<{ n: number }>(
        db,
        sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
      );
      expect(applied?.n).toBe(migrations.length);
      expect(await db.select().from(organization)).toHaveLength(1);
      const rows = await db.select().from(connectors).where(eq(connectors.tenantId, tenantId));
      expect(rows.map((c) => c.name).sort()).toEqual(["Sandbox AWS organisation", "Sandbox Azure tenant"]);
    });

    it("deploys a bundle created through replica A exactly once, and a session works on either replica", async () => {
      const [a, b] = replicas as [(typeof replicas)[number], (typeof replicas)[number]];
      const { bundle } = await client(DeploymentManagerService, a).createBundle({
        name: "Replicated S3 guard",
        policySlug: S3_SLUG,
        scopes: [await scope("Workloads")],
        mode: DeploymentMode.PREVENT,
      });
      const id = bundle?.entity?.id ?? "";
      await waitForBundleStatus(db, id, ["DEPLOYED"], 150_000);
      // Read back through the other replica with the same session.
      const { bundle: seen } = await client(DeploymentManagerService, b).getBundle({
        lookup: { case: "id", value: id },
      });
      expect(seen?.bundle?.name).toBe("Replicated S3 guard");
      const scps = await scpsNamed(sandbox, await workloadsPack());
      expect(scps).toHaveLength(1);
      expect(await scpTargets(scps[0]?.id ?? "")).toEqual([(await scope("Workloads")).externalId]);
      const jobs = await until("the deploy job to complete", async () => {
        const found = await syncJobs(id);
        return found.every((j) => j.state === "completed") ? found : undefined;
      });
      expect(jobs).toEqual([{ state: "completed", retry_count: 0 }]);
      figures.push(`bundle created through A: ${jobs.length} sync job, ${scps.length} SCP, 1 attachment`);
    });

    it("downloads through replica B an export made through replica A", async () => {
      const [a, b] = replicas as [(typeof replicas)[number], (typeof replicas)[number]];
      const { presignedUrl } = await client(PolicyEventStoreService, a).export({ format: ExportFormat.CSV });
      const link = new URL(presignedUrl);
      const download = await fetch(`${b.url}${link.pathname}${link.search}`);
      expect(download.status).toBe(200);
      expect((await download.text()).split("\r\n")[0]).toContain("occurred_at,type");
      figures.push("export made through A, downloaded through B: 200");
    });

    it("expires a waiver created through replica B exactly once while both sweep", async () => {
      const [a, b] = replicas as [(typeof replicas)[number], (typeof replicas)[number]];
      const { bundle } = await client(DeploymentManagerService, a).createBundle({
        name: "Waivable S3 guard",
        policySlug: S3_SLUG,
        scopes: [await scope("Workloads")],
        mode: DeploymentMode.PREVENT,
      });
      const { waiver } = await client(WaiverService, b).create({
        key: bundle?.key ?? "",
        duration: 3600n,
        comment: "replicated expiry",
      });
      const id = waiver?.entity?.id ?? "";
      await until("the waiver to be ACTIVE", async () => {
        const [row] = await db.select().from(waivers).where(eq(waivers.id, id));
        return row?.status === "ACTIVE";
      });
      await db
        .update(waivers)
        .set({ expiresAt: new Date(Date.now() - 1_000) })
        .where(eq(waivers.id, id));
      // Several sweeps at once: both replicas take some.
      const boss = new PgBoss({
        connectionString: database.databaseUrl,
        supervise: false,
        schedule: false,
        migrate: false,
      });
      await boss.start();
      await Promise.all([1, 2, 3, 4].map(() => boss.send(WAIVER_EXPIRY_JOB, {})));
      await boss.stop({ graceful: false, close: true });
      await until("the waiver to expire", async () => {
        const [row] = await db.select().from(waivers).where(eq(waivers.id, id));
        return row?.status === "EXPIRED";
      });
      await until("the sweeps to finish", async () => {
        const [left] = await query<{ n: number }>(
          db,
          sql`select count(*)::int as n from pgboss.job where name = ${WAIVER_EXPIRY_JOB} and state in ('created', 'active', 'retry') and start_after <= now()`,
        );
        return left?.n === 0;
      });
      const expiries = await db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.targetId, id), eq(auditLog.action, "WaiverService.Expire")));
      expect(expiries).toHaveLength(1);
      figures.push(`waiver created through B, 4 concurrent sweeps: expired ${expiries.length} time`);
    });

    it("holds the public rate limit across both replicas, per client address behind the proxy", async () => {
      const call = (replica: (typeof replicas)[number], address: string) =>
        fetch(`${replica.url}/palisade.policy.v1.PolicyService/ResolvePolicyKey`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-forwarded-for": address },
          body: JSON.stringify({ text: "AccessDenied" }),
        }).then(async (r) => {
          await r.body?.cancel();
          return r.status;
        });
      const statuses = await Promise.all(
        Array.from({ length: 3 * BURST }, (_, i) =>
          call(replicas[i % 2] as (typeof replicas)[number], "203.0.113.7"),
        ),
      );
      // The text names no key, so an allowed call answers 404 (not_found); a refused one 429.
      expect(statuses.filter((s) => s !== 404 && s !== 429)).toEqual([]);
      const allowed = statuses.filter((s) => s === 404).length;
      // One token refills every 100 s; the test takes far less.
      expect(allowed).toBeLessThanOrEqual(BURST + 1);
      expect(allowed).toBeGreaterThanOrEqual(BURST);
      // Another client address behind the same proxy has its own bucket.
      expect(await call(replicas[1] as (typeof replicas)[number], "203.0.113.8")).toBe(404);

      // A check with leases of one token (a write each) and of one second's refill (the default).
      const costs = [];
      for (const leaseSeconds of [0.001, 1]) {
        const rule = { burst: 1_000_000, perSecond: 1_000 };
        const limiter = createRateLimiter(db, rule, `cost-${leaseSeconds}`, { leaseSeconds });
        const checks = 200;
        const begun = performance.now();
        for (let i = 0; i < checks; i++) await limiter.take(`client-${i % 20}`);
        costs.push(
          `lease ${leaseSize(rule, leaseSeconds)}: ${((performance.now() - begun) / checks).toFixed(2)} ms`,
        );
      }
      figures.push(
        `public rate limit (burst ${BURST}): ${allowed} of ${statuses.length} calls allowed across A and B; a check on PostgreSQL costs ${costs.join(", ")}`,
      );
    });

    it("answers unavailable while the database refuses connections, and recovers by itself", async () => {
      const [a] = replicas as [(typeof replicas)[number]];
      const name = new URL(database.databaseUrl as string).pathname.slice(1);
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      // A deny message naming an SCP: resolving it reads the database (a text naming none is
      // answered without it, as are public calls within their rate-limit lease).
      const resolve = () =>
        client(PolicyService, a)
          .resolvePolicyKey({
            text: "User: arn:aws:iam::111111111111:user/alice is not authorized to perform: s3:PutObject with an explicit deny in a service control policy: arn:aws:organizations::222222222222:policy/o-abcdefghij/service_control_policy/p-abcd1234",
          })
          .then(
            () => "ok",
            (error) => ConnectError.from(error).code,
          );
      try {
        await admin.query(`alter database ${name} allow_connections false`);
        await admin.query(
          "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and application_name = 'replica-a'",
          [name],
        );
        expect(await resolve()).toBe(Code.Unavailable);
        const health = await fetch(`${a.url}/readyz`);
        expect(health.status).toBe(503);
      } finally {
        await admin.query(`alter database ${name} allow_connections true`);
        await admin.end();
      }
      // No deployed policy is that SCP: the usual answer is not_found.
      const recovered = await until("replica A to answer again", async () => {
        const code = await resolve();
        return code !== Code.Unavailable ? code : undefined;
      });
      expect(recovered).toBe(Code.NotFound);
    });

    it("finishes a deploy on the other replica when the one running it is killed", async () => {
      const [a] = replicas as [(typeof replicas)[number]];
      // Freeze the cloud so the deploy is caught mid-flight.
      sandboxProc?.child.kill("SIGSTOP");
      let resumed = false;
      try {
        const { bundle } = await client(DeploymentManagerService, a).createBundle({
          name: "Failover S3 guard",
          policySlug: S3_SLUG,
          scopes: [await scope("Workloads")],
          mode: DeploymentMode.PREVENT,
        });
        const id = bundle?.entity?.id ?? "";
        // The replica running the job holds the bundle's advisory lock.
        const holder = await until("a replica to run the deploy", async () => {
          const [row] = await query<{ application_name: string }>(
            db,
            sql`select distinct a.application_name from pg_locks l join pg_stat_activity a on a.pid = l.pid
            where l.locktype = 'advisory' and l.granted and l.objsubid = 1
              and ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended(${`bundle:${id}`}, 0)`,
          );
          return row?.application_name;
        });
        const victim = replicas.find((r) => r.name === holder);
        await stop(victim?.proc, "SIGKILL");
        const killedAt = performance.now();
        sandboxProc?.child.kill("SIGCONT");
        resumed = true;
        await waitForBundleStatus(db, id, ["DEPLOYED"], 150_000);
        const failoverSeconds = (performance.now() - killedAt) / 1000;
        expect(await scpsNamed(sandbox, await workloadsPack())).toHaveLength(1);
        // The job is marked completed just after its last write.
        const jobs = await until("the deploy job to complete", async () => {
          const found = await syncJobs(id);
          return found.every((j) => j.state === "completed") ? found : undefined;
        });
        expect(jobs).toHaveLength(1);
        figures.push(
          `kill -9 of ${holder} mid-deploy: DEPLOYED by the other replica ${failoverSeconds.toFixed(1)} s later, 1 SCP, job attempts ${(jobs[0]?.retry_count ?? 0) + 1}`,
        );
        survivor = replicas.find((r) => r !== victim);
      } finally {
        if (!resumed) sandboxProc?.child.kill("SIGCONT");
      }
    });

    it("fails a deploy while the cloud is down, with its code, and deploys it once the cloud is back", async () => {
      const a = survivor ?? (replicas[0] as (typeof replicas)[number]);
      await stop(sandboxProc);
      const { bundle } = await client(DeploymentManagerService, a).createBundle({
        name: "Outage S3 guard",
        policySlug: S3_SLUG,
        scopes: [await scope("Workloads")],
        mode: DeploymentMode.PREVENT,
      });
      const id = bundle?.entity?.id ?? "";
      const stoppedAt = performance.now();
      const failed = await waitForBundleStatus(db, id, ["FAILED"], 150_000);
      expect(failed.errorCodes).toEqual(["DEPLOYMENT_SYNC_FAILED"]);
      const failedAfter = (performance.now() - stoppedAt) / 1000;
      const { bundle: shown } = await client(DeploymentManagerService, a).getBundle({
        lookup: { case: "id", value: id },
      });
      expect(shown?.bundle?.errorCodes.length).toBeGreaterThan(0);

      await startSandbox();
      const backAt = performance.now();
      const row = await waitForBundleStatus(db, id, ["DEPLOYED"], 150_000);
      const convergedAfter = (performance.now() - backAt) / 1000;
      expect(row.errorCodes).toEqual([]);
      expect(await scpsNamed(sandbox, await workloadsPack())).toHaveLength(1);
      figures.push(
        `sandbox stopped during a deploy: FAILED (DEPLOYMENT_SYNC_FAILED) after ${failedAfter.toFixed(1)} s; DEPLOYED ${convergedAfter.toFixed(1)} s after the sandbox came back, 1 SCP`,
      );
    });
  },
);

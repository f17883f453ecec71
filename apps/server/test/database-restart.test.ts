import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Code, ConnectError } from "@connectrpc/connect";
import { DeploymentMode } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { WaiverService } from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import { inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUNDLE_SYNC_JOB } from "../src/jobs/bundle-sync-job";
import { waivers } from "../src/modules/waiver/waiver-schema";
import { node, scpsNamed, waitForBundleStatus, waitForHierarchy } from "./support/deployment-helpers";
import { waitFor } from "./support/poll";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  type Credentials,
  startTestServer,
  type TestServer,
} from "./support/test-server";

/** Debian's PostgreSQL server binaries, the newest installed. */
function postgresBin(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const version = readdirSync(root)
    .sort((a, b) => Number(a) - Number(b))
    .at(-1);
  const bin = version && join(root, version, "bin");
  return bin && existsSync(join(bin, "pg_ctl")) ? bin : undefined;
}

const bin = postgresBin();
// PostgreSQL refuses to run as root: the cluster is the postgres user's, started with su.
const canRunCluster = !!bin && !!process.env.TEST_DATABASE_URL && process.getuid?.() === 0;

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

/** A PostgreSQL cluster of the test's own, on its own port, that the test stops and starts. */
function createCluster(port: number) {
  const dir = mkdtempSync(join(tmpdir(), "palisade-pg-"));
  chmodSync(dir, 0o777);
  const data = join(dir, "data");
  const asPostgres = (command: string) =>
    execFileSync("su", ["postgres", "-s", "/bin/sh", "-c", command], { stdio: "pipe", timeout: 60_000 });
  asPostgres(`${bin}/initdb -D ${data} -A trust -U postgres --no-sync >/dev/null`);
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c fsync=off`;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => asPostgres(`${bin}/pg_ctl -D ${data} -o "${options}" -l ${dir}/log -w start >/dev/null`),
    /** What an operator's restart does: every session is ended at once (57P01). */
    stopFast: () => asPostgres(`${bin}/pg_ctl -D ${data} -m fast -w stop >/dev/null`),
    remove: () => {
      try {
        asPostgres(`${bin}/pg_ctl -D ${data} -m immediate -w stop >/dev/null 2>&1 || true`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

const S3_SLUG = "protect-s3-account-public-access-block";
const OUTAGE_MS = 30_000;

/**
 * PostgreSQL is stopped with `pg_ctl -m fast` while waivers are created on an AUTO bundle (each
 * starts a bundle sync), stays down 30 s while people try to sign in, and is started again. The
 * server process survives; every waiver it acknowledged is stored and enforced once the database
 * is back; the SCP is not duplicated.
 */
describe.skipIf(!canRunCluster)("a PostgreSQL restart under load", { timeout: 300_000 }, () => {
  let cluster: ReturnType<typeof createCluster>;
  let server: TestServer;
  let admin: Credentials;
  let requester: Credentials;

  beforeAll(async () => {
    cluster = createCluster(await freePort());
    cluster.start();
    server = await startTestServer("pglite", {
      DATABASE_URL: cluster.url,
      PALISADE_SANDBOX: "true",
      SANDBOX_ACTIVITY: "false",
    });
    admin = (await server.addMember({ role: "ADMINISTRATOR" })).credentials;
    requester = (await server.addMember({ role: "VISITOR" })).credentials;
    await waitForHierarchy(server.palisade.database.db, server.defaultTenantId);
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
    cluster?.remove();
  });

  it("the server survives, every acknowledged waiver is stored and enforced, one SCP", async () => {
    const db = server.palisade.database.db;
    const ou = await node(db, server.defaultTenantId, "Workloads-Prod");
    const { bundle } = await server.client(DeploymentManagerService, admin).createBundle({
      name: "Restart-proof S3 guard",
      policySlug: S3_SLUG,
      scopes: [{ externalId: ou.externalId, connectorId: ou.connectorId }],
      mode: DeploymentMode.PREVENT,
    });
    const key = bundle?.key ?? "";
    await waitForBundleStatus(db, bundle?.entity?.id ?? "", ["DEPLOYED"]);

    const acknowledged: string[] = [];
    const refusals: string[] = [];
    const createWaiver = async (n: number) => {
      try {
        const { waiver } = await server.client(WaiverService, requester).create({
          key,
          duration: 3_600n,
          comment: `restart load ${n}`,
        });
        acknowledged.push(waiver?.entity?.id ?? "");
      } catch (error) {
        refusals.push(Code[ConnectError.from(error).code]);
      }
    };

    // Waivers are created while the database goes down: some before, one as it stops.
    const loadStarted = new Date(Date.now() - 1_000);
    await createWaiver(1);
    await createWaiver(2);
    const inFlight = createWaiver(3);
    cluster.stopFast();
    await inFlight;

    const outageStarted = Date.now();
    const signIns: number[] = [];
    while (Date.now() - outageStarted < OUTAGE_MS) {
      const response = await server.signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
      signIns.push(response.status);
      if (response.status === 503) expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
      await createWaiver(100 + signIns.length);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    }
    cluster.start();
    const restartedAt = Date.now();
    await waitFor(
      "the server to be ready again",
      async () => (await fetch(`${server.url}/readyz`)).ok,
      60_000,
    );
    const readyAfterMs = Date.now() - restartedAt;
    await createWaiver(4);
    await createWaiver(5);

    // During the outage: sign-in was told to come back, calls were unavailable, never internal.
    expect(signIns.length).toBeGreaterThan(3);
    expect(signIns.every((status) => status === 503)).toBe(true);
    expect(refusals.filter((code) => code !== "Unavailable")).toEqual([]);
    expect(acknowledged.length).toBeGreaterThanOrEqual(4);

    // Every acknowledged waiver is stored and becomes active: the syncs interrupted by the
    // restart were retried by the queue.
    const rows = await waitFor(
      "every acknowledged waiver to be active",
      async () => {
        const found = await db.select().from(waivers).where(inArray(waivers.id, acknowledged));
        return found.length === acknowledged.length && found.every((w) => w.status === "ACTIVE")
          ? found
          : undefined;
      },
      120_000,
    );
    expect(rows).toHaveLength(acknowledged.length);
    const sandbox = server.palisade.cloud.sandbox;
    if (!sandbox) throw new Error("the sandbox cloud is not running");
    expect(await scpsNamed(sandbox, `palisade-${ou.externalId}-0`)).toHaveLength(1);
    const enforcedAfterMs = Date.now() - restartedAt;

    // The bundle syncs the waivers started: none failed for good; those the restart interrupted
    // were run again by the queue.
    const syncs = (
      (await db.execute(
        sql`select state, retry_count from pgboss.job where name = ${BUNDLE_SYNC_JOB} and created_on >= ${loadStarted}`,
      )) as unknown as { rows: { state: string; retry_count: number }[] }
    ).rows;
    expect(syncs.filter((job) => job.state === "failed")).toEqual([]);
    const retried = syncs.filter((job) => job.retry_count > 0).length;
    console.info(
      `PostgreSQL restart: ${refusals.length} calls refused as unavailable, ${signIns.length} sign-ins answered 503 during ${OUTAGE_MS / 1000} s, ${acknowledged.length} waivers acknowledged and all enforced, ready ${readyAfterMs} ms after the database started, every acknowledged waiver enforced ${enforcedAfterMs} ms after it started; ${syncs.length} bundle syncs since the load began (${syncs.map((job) => job.state).join(", ")}), ${retried} of them run again after a failure`,
    );
  });
});

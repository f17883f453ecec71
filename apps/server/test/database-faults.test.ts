import { Code, ConnectError } from "@connectrpc/connect";
import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LockLostError } from "../src/db/database";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  type Credentials,
  startTestServer,
  type TestServer,
} from "./support/test-server";

/**
 * The database goes away while the server works: every backend of the server's database is
 * terminated (what `pg_ctl -m fast stop` does to each session: 57P01 "terminating connection due
 * to administrator command"), and the database refuses new connections for a while. The server
 * process survives, calls in flight fail as `unavailable` (never `internal`), sign-in answers 503
 * with Retry-After, and everything works again once the database is back.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)("database faults (PostgreSQL)", () => {
  let server: TestServer;
  let admin: Credentials;
  let databaseName: string;
  const control = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });

  beforeAll(async () => {
    server = await startTestServer("postgres");
    admin = (await server.addMember({ role: "ADMINISTRATOR" })).credentials;
    databaseName = new URL(server.palisade.database.connectionString ?? "").pathname.slice(1);
    await control.connect();
  });
  afterAll(async () => {
    await control.query(`ALTER DATABASE ${databaseName} ALLOW_CONNECTIONS true`).catch(() => {});
    await control.end();
    await server?.stop();
  });

  /** Ends every session of the server's database, as a fast shutdown does. */
  async function terminateSessions(): Promise<number> {
    const { rows } = await control.query(
      "select count(*) filter (where pg_terminate_backend(pid)) as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
      [databaseName],
    );
    return Number(rows[0]?.n ?? 0);
  }

  const tenants = () => server.client(TenantService, admin);

  it("a lock whose connection is lost while its work runs is refused, and the process lives on", async () => {
    const outcome = server.palisade.database.lock("database-faults", async () => {
      expect(await terminateSessions()).toBeGreaterThan(0);
      // The lock's session is gone: another replica could take the lock now.
      await new Promise((resolve) => setTimeout(resolve, 300));
      return "done";
    });
    await expect(outcome).rejects.toBeInstanceOf(LockLostError);
    // The pool replaced the lost connections.
    await expect(server.palisade.database.lock("database-faults", async () => "again")).resolves.toBe(
      "again",
    );
  });

  it("calls while every session is terminated answer unavailable or succeed, never internal", async () => {
    const codes: string[] = [];
    const calls = Array.from({ length: 40 }, async (_, i) => {
      await new Promise((resolve) => setTimeout(resolve, i * 10));
      try {
        await tenants().getCurrent({});
        codes.push("ok");
      } catch (error) {
        codes.push(Code[ConnectError.from(error).code]);
      }
    });
    for (let round = 0; round < 4; round++) {
      await new Promise((resolve) => setTimeout(resolve, 80));
      await terminateSessions();
    }
    await Promise.all(calls);
    expect(codes.filter((c) => c !== "ok" && c !== "Unavailable")).toEqual([]);
    await expect(tenants().getCurrent({})).resolves.toBeDefined();
  });

  it("while the database refuses connections: RPCs unavailable, sign-in 503 with Retry-After, /healthz up, /readyz down; then all recover", async () => {
    await control.query(`ALTER DATABASE ${databaseName} ALLOW_CONNECTIONS false`);
    await terminateSessions();

    const error = await tenants()
      .getCurrent({})
      .then(() => undefined, ConnectError.from);
    expect(error?.code).toBe(Code.Unavailable);
    const signIn = await server.signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
    expect(signIn.status).toBe(503);
    expect(Number(signIn.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(503);

    await control.query(`ALTER DATABASE ${databaseName} ALLOW_CONNECTIONS true`);
    expect((await server.signIn(ADMIN_EMAIL, ADMIN_PASSWORD)).status).toBe(200);
    await expect(tenants().getCurrent({})).resolves.toBeDefined();
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  });
});

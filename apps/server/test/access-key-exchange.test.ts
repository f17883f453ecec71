import { Code, ConnectError } from "@connectrpc/connect";
import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import { TeamService } from "@palisade/api/gen/palisade/team/v1/team_pb";
import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verification } from "../src/auth/auth-schema";
import { apikey } from "../src/modules/team/team-schema";
import { engines } from "./support/test-database";
import { startTestServer, type TestServer } from "./support/test-server";

interface Exchanged {
  token: string;
  tokenType: string;
  expiresAt: string;
  expiresIn: number;
  tenantId: string;
  role: string;
}

async function codeOf(call: Promise<unknown>): Promise<Code | "ok"> {
  try {
    await call;
    return "ok";
  } catch (error) {
    return ConnectError.from(error).code;
  }
}

describe.each(engines)("access-key exchange on %s", (engine) => {
  let server: TestServer;
  let clientCounter = 0;
  beforeAll(async () => {
    // Each test speaks from client addresses of its own (X-Forwarded-For).
    server = await startTestServer(engine, { TRUST_PROXY: "true" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** A tool's request from an address of its own, so each test has its own limit. */
  function exchange(body: unknown, clientAddress = `203.0.113.${++clientCounter}`): Promise<Response> {
    return fetch(`${server.url}/api/auth/access-key/exchange`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": clientAddress },
      body: JSON.stringify(body),
    });
  }

  async function keyIdOf(key: string): Promise<string> {
    const result = await server.palisade.auth.api.verifyApiKey({ body: { key } });
    if (!result.key) throw new Error("the key does not verify");
    return result.key.id;
  }

  it("trades an API key for a bearer token of the key's tenant and role, valid for under an hour", async () => {
    const tenantId = await server.createTenant("Exchange Corp");
    await server.addMember({ role: "ADMINISTRATOR", tenantId });
    const key = await server.createApiKey({ tenantId, role: "EDITOR" });
    const before = Date.now();
    const response = await exchange({ accessKey: key });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Exchanged;
    expect(body.tokenType).toBe("Bearer");
    expect(body.token.startsWith("pal_")).toBe(false);
    expect(body.tenantId).toBe(tenantId);
    expect(body.role).toBe("EDITOR");
    expect(body.expiresIn).toBeGreaterThan(0);
    expect(body.expiresIn).toBeLessThanOrEqual(3600);
    const expiresAt = new Date(body.expiresAt).getTime();
    expect(expiresAt).toBeGreaterThan(before);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 3600 * 1000);

    const current = await server.client(TenantService, { kind: "bearer", token: body.token }).getCurrent({});
    expect(current.tenant?.id).toBe(tenantId);
    expect(current.tenant?.name).toBe("Exchange Corp");
    expect(current.role).toBe(Role.EDITOR);
    // The token is stored hashed, never as issued.
    const stored = await server.palisade.database.db
      .select()
      .from(verification)
      .where(like(verification.identifier, "access-key-session:%"));
    expect(stored.length).toBeGreaterThan(0);
    expect(JSON.stringify(stored)).not.toContain(body.token);
  });

  it("refuses an unknown key, an empty one and a request without one", async () => {
    const unknown = await exchange({ accessKey: "pal_thisisnotakeyatall" });
    expect(unknown.status).toBe(401);
    expect(((await unknown.json()) as { code: string }).code).toBe("INVALID_ACCESS_KEY");
    expect((await exchange({ accessKey: "" })).status).toBe(400);
    expect((await exchange({})).status).toBe(400);
    expect((await exchange({ accessKey: "x".repeat(10_000) })).status).toBe(400);
  });

  it("refuses a revoked key, and ends the tokens it was already exchanged for", async () => {
    const admin = await server.addMember({ role: "ADMINISTRATOR" });
    const key = await server.createApiKey({ tenantId: server.defaultTenantId, role: "VIEWER" });
    const { token } = (await (await exchange({ accessKey: key })).json()) as Exchanged;
    const tool = server.client(TenantService, { kind: "bearer", token });
    expect((await tool.getCurrent({})).role).toBe(Role.VIEWER);

    await server.client(TeamService, admin.credentials).revokeApiKey({ id: await keyIdOf(key) });
    expect(await codeOf(tool.getCurrent({}))).toBe(Code.Unauthenticated);
    const again = await exchange({ accessKey: key });
    expect(again.status).toBe(401);
    expect(((await again.json()) as { code: string }).code).toBe("INVALID_ACCESS_KEY");
  });

  it("refuses an expired key, and a token past its end", async () => {
    const key = await server.createApiKey({ tenantId: server.defaultTenantId, role: "INTEGRATOR" });
    const keyId = await keyIdOf(key);
    const { token } = (await (await exchange({ accessKey: key })).json()) as Exchanged;
    const tool = server.client(TenantService, { kind: "bearer", token });
    expect((await tool.getCurrent({})).role).toBe(Role.INTEGRATOR);

    const db = server.palisade.database.db;
    await db
      .update(verification)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(like(verification.identifier, "access-key-session:%"));
    expect(await codeOf(tool.getCurrent({}))).toBe(Code.Unauthenticated);

    await db
      .update(apikey)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apikey.id, keyId));
    expect((await exchange({ accessKey: key })).status).toBe(401);
  });

  it("limits exchanges per client address", async () => {
    const address = "198.18.0.77";
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await exchange({ accessKey: "pal_guess" }, address)).status);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

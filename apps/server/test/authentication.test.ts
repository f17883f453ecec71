import { Code, ConnectError } from "@connectrpc/connect";
import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "../src/auth/auth-schema";
import { engines } from "./support/test-database";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, type TestServer } from "./support/test-server";

async function codeOf(call: Promise<unknown>): Promise<Code | "ok"> {
  try {
    await call;
    return "ok";
  } catch (error) {
    return ConnectError.from(error).code;
  }
}

describe.each(engines)("authentication on %s", (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("reports a healthy database", async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", database: { engine, ok: true } });
  });

  it("signs the bootstrap administrator in with a session cookie usable on every RPC", async () => {
    const response = await server.signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
    expect(response.status).toBe(200);
    const cookie = response.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    expect(cookie).toContain("palisade.session_token=");
    const current = await server.client(TenantService, { kind: "cookie", cookie }).getCurrent({});
    expect(current.user?.email).toBe(ADMIN_EMAIL);
    expect(current.tenant?.name).toBe("Default");
    expect(current.role).toBe(Role.ADMINISTRATOR);
  });

  it("refuses a wrong password without saying which part was wrong", async () => {
    const response = await server.signIn(ADMIN_EMAIL, "not the password");
    expect(response.status).toBe(401);
    expect(JSON.stringify(await response.json())).toMatch(/invalid email or password/i);
  });

  it("accepts a session token as a bearer credential", async () => {
    const { credentials } = await server.addMember({ role: "VIEWER", name: "Grace Hopper" });
    const current = await server.client(TenantService, credentials).getCurrent({});
    expect(current.role).toBe(Role.VIEWER);
    expect(current.user?.givenName).toBe("Grace");
    expect(current.user?.familyName).toBe("Hopper");
  });

  it("accepts an API key bound to a tenant and a role", async () => {
    const key = await server.createApiKey({ tenantId: server.defaultTenantId, role: "INTEGRATOR" });
    expect(key.startsWith("pal_")).toBe(true);
    const current = await server.client(TenantService, { kind: "bearer", token: key }).getCurrent({});
    expect(current.tenant?.id).toBe(server.defaultTenantId);
    expect(current.role).toBe(Role.INTEGRATOR);
  });

  it("answers unauthenticated without credentials or with bad ones", async () => {
    expect(await codeOf(server.client(TenantService).getCurrent({}))).toBe(Code.Unauthenticated);
    const bad = server.client(TenantService, { kind: "bearer", token: "not-a-session" });
    expect(await codeOf(bad.getCurrent({}))).toBe(Code.Unauthenticated);
    const badKey = server.client(TenantService, { kind: "bearer", token: "pal_notakey" });
    expect(await codeOf(badKey.getCurrent({}))).toBe(Code.Unauthenticated);
  });

  it("answers permission_denied, with what to do, to a user of no tenant", async () => {
    const loner = await server.palisade.auth.api.signUpEmail({
      body: { email: "loner@palisade.test", password: "a-long-password", name: "Lone User" },
    });
    await server.palisade.database.db
      .update(user)
      .set({ emailVerified: true })
      .where(eq(user.id, loner.user.id));
    const signIn = await server.palisade.auth.api.signInEmail({
      body: { email: "loner@palisade.test", password: "a-long-password" },
    });
    const error = await server
      .client(TenantService, { kind: "bearer", token: signIn.token })
      .getCurrent({})
      .catch((e: unknown) => ConnectError.from(e));
    expect(error).toBeInstanceOf(ConnectError);
    expect((error as ConnectError).code).toBe(Code.PermissionDenied);
    expect((error as ConnectError).rawMessage).toMatch(/not a member of any tenant/);
  });
});

import { Code } from "@connectrpc/connect";
import { AccountService } from "@palisade/api/gen/palisade/account/v1/account_pb";
import { ErrorDetailSchema } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { TeamService } from "@palisade/api/gen/palisade/team/v1/team_pb";
import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { WaiverApprovalMode } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { and, eq } from "drizzle-orm";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { session, user } from "../src/auth/auth-schema";
import { markSessionSignIn } from "../src/auth/session-repository";
import { auditLog } from "../src/modules/audit/audit-schema";
import { errorOf } from "./support/call-error";
import { identityFlowEngines } from "./support/test-database";
import { type Credentials, startTestServer, type TestServer } from "./support/test-server";

describe.each(identityFlowEngines)("Require MFA on %s", (engine) => {
  let server: TestServer;
  let tenantId: string;
  /** An administrator's API key: keys are not people, so Require MFA never stops them. */
  let adminKey: Credentials;

  beforeAll(async () => {
    server = await startTestServer(engine);
    tenantId = await server.createTenant("Secure");
    await server.addMember({ role: "ADMINISTRATOR", tenantId });
    adminKey = { kind: "bearer", token: await server.createApiKey({ tenantId, role: "ADMINISTRATOR" }) };
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** A member of the tenant, signed in with their password; answers the session token. */
  async function newMember(): Promise<{ token: string; userId: string; password: string }> {
    const added = await server.addMember({ role: "VIEWER", tenantId });
    const signIn = await server.signIn(added.email, added.password);
    expect(signIn.status).toBe(200);
    const { token } = (await signIn.json()) as { token: string };
    return { token, userId: added.userId, password: added.password };
  }

  async function setRequireMfa(on: boolean) {
    return server.client(TenantService, adminKey).updateSettings({
      settings: {
        defaultWaiverApprovalMode: WaiverApprovalMode.AUTO,
        maxWaiverDurationHours: 72,
        requireMfa: on,
      },
    });
  }

  function post(path: string, body: unknown, token: string): Promise<Response> {
    return fetch(`${server.url}/api/auth${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url, authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
  }

  it("is off by default: a member without an authenticator app uses the tenant", async () => {
    const { token } = await newMember();
    const current = await server.client(TenantService, { kind: "bearer", token }).getCurrent({});
    expect(current.tenant?.id).toBe(tenantId);
    expect(current.tenant?.settings?.requireMfa).toBe(false);
  });

  it("turned on, refuses a member without an app with a clear message until they set one up", async () => {
    const { token, userId, password } = await newMember();
    const asMember = { kind: "bearer", token } as const;
    const saved = await setRequireMfa(true);
    expect(saved.tenant?.settings?.requireMfa).toBe(true);
    // Every member made here signed in with a password alone.
    expect(saved.tenant?.membersWithoutMfa).toBeGreaterThanOrEqual(2);
    const audited = await server.palisade.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, tenantId), eq(auditLog.action, "TenantService.UpdateSettings")));
    expect(audited.map((entry) => entry.after)).toContainEqual(expect.objectContaining({ requireMfa: true }));

    // Each call starts when it is awaited: started together, one refused while the other was
    // awaited would be a rejection nobody handles yet.
    for (const call of [
      () => server.client(TenantService, asMember).getCurrent({}),
      () => server.client(TeamService, asMember).listMembers({}),
    ]) {
      const refused = await errorOf(call());
      expect(refused.code).toBe(Code.PermissionDenied);
      expect(refused.rawMessage).toBe(
        "This tenant requires two-factor authentication. Set up an authenticator app on your account page (or sign in with a passkey), then try again.",
      );
      expect(refused.findDetails(ErrorDetailSchema)[0]?.mfaSetupRequired).toBe(true);
    }
    // Their own account still answers: that is where they set up the app.
    const history = await server.client(AccountService, asMember).listSignInHistory({});
    expect(history.items.length).toBeGreaterThan(0);

    const enable = await post("/two-factor/enable", { password }, token);
    expect(enable.status).toBe(200);
    const { totpURI } = (await enable.json()) as { totpURI: string };
    const secret = new URL(totpURI).searchParams.get("secret") ?? "";
    // Enrolled but not confirmed yet: still refused.
    expect((await errorOf(server.client(TenantService, asMember).getCurrent({}))).code).toBe(
      Code.PermissionDenied,
    );
    const confirm = await post("/two-factor/verify-totp", { code: await generate({ secret }) }, token);
    expect(confirm.status).toBe(200);
    const [row] = await server.palisade.database.db.select().from(user).where(eq(user.id, userId));
    expect(row?.twoFactorEnabled).toBe(true);
    // Confirming the app renews the session (the page's cookie is replaced the same way).
    const renewed = confirm.headers.get("set-auth-token") ?? token;
    const current = await server.client(TenantService, { kind: "bearer", token: renewed }).getCurrent({});
    expect(current.tenant?.id).toBe(tenantId);
  });

  it("lets a session signed in with a passkey in", async () => {
    const { token } = await newMember();
    await setRequireMfa(true);
    const asMember = { kind: "bearer", token } as const;
    expect((await errorOf(server.client(TenantService, asMember).getCurrent({}))).code).toBe(
      Code.PermissionDenied,
    );
    const [own] = await server.palisade.database.db.select().from(session).where(eq(session.token, token));
    await markSessionSignIn(server.palisade.database.db, own?.id ?? "", "passkey", undefined);
    expect((await server.client(TenantService, asMember).getCurrent({})).tenant?.id).toBe(tenantId);
  });

  it("turned off again, lets every member in", async () => {
    const { token } = await newMember();
    await setRequireMfa(true);
    const asMember = { kind: "bearer", token } as const;
    expect((await errorOf(server.client(TenantService, asMember).getCurrent({}))).code).toBe(
      Code.PermissionDenied,
    );
    await setRequireMfa(false);
    expect((await server.client(TenantService, asMember).getCurrent({})).tenant?.id).toBe(tenantId);
  });

  it("applies to its own tenant only", async () => {
    await setRequireMfa(true);
    const elsewhere = await server.addMember({ role: "VIEWER" });
    const current = await server.client(TenantService, elsewhere.credentials).getCurrent({});
    expect(current.tenant?.id).toBe(server.defaultTenantId);
    await setRequireMfa(false);
  });
});

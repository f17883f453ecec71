import { Code } from "@connectrpc/connect";
import { TeamService } from "@palisade/api/gen/palisade/team/v1/team_pb";
import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { session, verification } from "../src/auth/auth-schema";
import { auditLog } from "../src/modules/audit/audit-schema";
import { errorOf } from "./support/call-error";
import { engines } from "./support/test-database";
import { type Credentials, startTestServer, type TestServer } from "./support/test-server";

describe.each(engines)("an administrator signs a member out everywhere on %s", (engine) => {
  let server: TestServer;
  let admin: Credentials;

  beforeAll(async () => {
    server = await startTestServer(engine);
    admin = (await server.addMember({ role: "ADMINISTRATOR" })).credentials;
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** A member signed in twice: with the bearer token of addMember and a browser's session cookie. */
  async function signedInMember(tenantId = server.defaultTenantId) {
    const added = await server.addMember({ role: "EDITOR", tenantId });
    const signIn = await server.signIn(added.email, added.password);
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    expect(cookie).toContain("session_token=");
    return { ...added, cookie };
  }

  it("ends every session and trusted device of the member; their next request answers 401", async () => {
    const target = await signedInMember();
    const db = server.palisade.database.db;
    await db.insert(verification).values({
      id: crypto.randomUUID(),
      identifier: `trust-device-${crypto.randomUUID()}`,
      value: target.userId,
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    const asCookie = { kind: "cookie", cookie: target.cookie } as const;
    expect((await server.client(TenantService, asCookie).getCurrent({})).user?.email).toBe(target.email);

    const answer = await server
      .client(TeamService, admin)
      .revokeMemberSessions({ memberId: target.memberId });
    expect(answer.revoked).toBe(2);

    // The browser's cookie, as the page would send it: 401 at the HTTP level.
    const raw = await fetch(`${server.url}/palisade.tenant.v1.TenantService/GetCurrent`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: target.cookie, origin: server.url },
      body: "{}",
    });
    expect(raw.status).toBe(401);
    expect((await errorOf(server.client(TenantService, target.credentials).getCurrent({}))).code).toBe(
      Code.Unauthenticated,
    );
    expect(await db.select().from(session).where(eq(session.userId, target.userId))).toEqual([]);
    expect(await db.select().from(verification).where(eq(verification.value, target.userId))).toEqual([]);
    const audited = await db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.targetId, target.memberId), eq(auditLog.action, "TeamService.RevokeMemberSessions")),
      );
    expect(audited.map((entry) => entry.after)).toEqual([
      expect.objectContaining({ email: target.email, revoked: 2 }),
    ]);

    // They may sign in again.
    expect((await server.signIn(target.email, target.password)).status).toBe(200);
  });

  it("cannot reach a member of another tenant", async () => {
    const otherTenant = await server.createTenant("Elsewhere");
    const outsider = await signedInMember(otherTenant);
    const refused = await errorOf(
      server.client(TeamService, admin).revokeMemberSessions({ memberId: outsider.memberId }),
    );
    expect(refused.code).toBe(Code.NotFound);
    const asCookie = { kind: "cookie", cookie: outsider.cookie } as const;
    expect((await server.client(TenantService, asCookie).getCurrent({})).tenant?.id).toBe(otherTenant);
  });

  it("is refused to a member who may not manage members", async () => {
    const target = await signedInMember();
    const editor = await server.addMember({ role: "EDITOR" });
    const refused = await errorOf(
      server.client(TeamService, editor.credentials).revokeMemberSessions({ memberId: target.memberId }),
    );
    expect(refused.code).toBe(Code.PermissionDenied);
    expect(refused.rawMessage).toContain("USERS_WRITE");
    const asCookie = { kind: "cookie", cookie: target.cookie } as const;
    expect((await server.client(TenantService, asCookie).getCurrent({})).user?.email).toBe(target.email);
  });
});

import { timestampDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import { InvitationTokenState, TeamService } from "@palisade/api/gen/palisade/team/v1/team_pb";
import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "../src/auth/auth-schema";
import { auditLog } from "../src/modules/audit/audit-schema";
import { invitation } from "../src/modules/team/team-schema";
import { errorOf } from "./support/call-error";
import { invitationTokenIn } from "./support/invitation-link";
import { type SmtpTestServer, startSmtpTestServer } from "./support/smtp-test-server";
import { engines } from "./support/test-database";
import { type Credentials, startTestServer, type TestServer } from "./support/test-server";

function sessionCookieOf(headers: Headers): string {
  return headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

describe.each(engines)("invitation links on %s", (engine) => {
  let smtp: SmtpTestServer;
  let server: TestServer;
  let admin: Credentials;
  let tenantId: string;

  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    server = await startTestServer(engine, {
      SMTP_URL: smtp.url,
      PUBLIC_URL: "https://palisade.example.com",
    });
    tenantId = await server.createTenant("Blue Team");
    admin = (await server.addMember({ role: "ADMINISTRATOR", tenantId, name: "Alice Admin" })).credentials;
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.stop();
  });

  /** Invites the address and answers the token of the link that arrived by SMTP. */
  async function invite(email: string, role: Role): Promise<string> {
    await server.client(TeamService, admin).inviteMember({ email, role });
    const mail = await smtp.waitForMail(email);
    expect(mail.parsed.text).toContain("https://palisade.example.com/invite/");
    return invitationTokenIn(mail.parsed.text ?? "");
  }

  const anonymous = () => server.client(TeamService);

  it("invite, the message arrives, its token looks up and accepts as a new user with a session", async () => {
    const token = await invite("dana@example.com", Role.EDITOR);
    const stored = await server.palisade.database.db
      .select({ tokenHash: invitation.tokenHash })
      .from(invitation)
      .where(eq(invitation.email, "dana@example.com"));
    expect(stored[0]?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored[0]?.tokenHash).not.toContain(token);

    const looked = await anonymous().getInvitationByToken({ token });
    expect(looked.state).toBe(InvitationTokenState.VALID);
    expect(looked.invitation).toMatchObject({
      tenantName: "Blue Team",
      inviterName: "Alice Admin",
      role: Role.EDITOR,
      email: "dana@example.com",
      hasAccount: false,
    });
    if (!looked.invitation?.expiresAt) throw new Error("no expiry");
    const expiresIn = timestampDate(looked.invitation.expiresAt).getTime() - Date.now();
    expect(expiresIn).toBeGreaterThan(167 * 3_600_000);
    expect(expiresIn).toBeLessThanOrEqual(168 * 3_600_000);

    const short = await errorOf(
      anonymous().acceptInvitationWithNewAccount({ token, name: "Dana", password: "short" }),
    );
    expect(short.code).toBe(Code.InvalidArgument);
    expect(short.rawMessage).toBe("Password must be at least 10 characters long");

    let cookie = "";
    const accepted = await anonymous().acceptInvitationWithNewAccount(
      { token, name: "Dana Dev", password: "a-long-password-1" },
      { onHeader: (headers) => (cookie = sessionCookieOf(headers)) },
    );
    expect(accepted.tenantId).toBe(tenantId);
    expect(cookie).toContain("palisade.session_token=");
    const current = await server.client(TenantService, { kind: "cookie", cookie }).getCurrent({});
    expect(current.tenant?.id).toBe(tenantId);
    expect(current.role).toBe(Role.EDITOR);
    expect(current.user?.name).toBe("Dana Dev");
    const [account] = await server.palisade.database.db
      .select({ emailVerified: user.emailVerified })
      .from(user)
      .where(eq(user.email, "dana@example.com"));
    expect(account?.emailVerified).toBe(true);
    // The password works on the sign-in page too.
    expect((await server.signIn("dana@example.com", "a-long-password-1")).status).toBe(200);

    const again = await errorOf(
      anonymous().acceptInvitationWithNewAccount({
        token,
        name: "Mallory",
        password: "another-long-password",
      }),
    );
    expect(again.code).toBe(Code.FailedPrecondition);
    expect(again.rawMessage).toMatch(/already been used/);
    expect((await anonymous().getInvitationByToken({ token })).state).toBe(InvitationTokenState.USED);

    const audited = await server.palisade.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "TeamService.AcceptInvitationWithNewAccount"));
    expect(audited).toHaveLength(1);
    expect(audited[0]?.actorName).toBe("Dana Dev");
  });

  it("accepts a token once when two new accounts race for it", async () => {
    const token = await invite("kim@example.com", Role.VIEWER);
    const results = await Promise.allSettled([
      anonymous().acceptInvitationWithNewAccount({ token, name: "Kim", password: "a-long-password-6" }),
      anonymous().acceptInvitationWithNewAccount({ token, name: "Kim Two", password: "a-long-password-7" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected");
    const error = ConnectError.from(refused?.reason);
    expect([Code.FailedPrecondition, Code.AlreadyExists]).toContain(error.code);
    const accounts = await server.palisade.database.db
      .select()
      .from(user)
      .where(eq(user.email, "kim@example.com"));
    expect(accounts).toHaveLength(1);
  });

  it("a sign-up or sign-in with the invited address does not get the membership", async () => {
    const token = await invite("erin@example.com", Role.ADMINISTRATOR);
    const signUp = await fetch(`${server.url}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({
        email: "erin@example.com",
        password: "an-attackers-password",
        name: "Not Erin",
      }),
    });
    if (signUp.ok) {
      const signIn = await server.signIn("erin@example.com", "an-attackers-password");
      expect(signIn.status).toBe(200);
      const cookie = sessionCookieOf(signIn.headers);
      const error = await errorOf(server.client(TenantService, { kind: "cookie", cookie }).getCurrent({}));
      expect(error.code).toBe(Code.PermissionDenied);
      expect(error.rawMessage).toMatch(/not a member of any tenant/);
    }
    const listed = await server.client(TeamService, admin).listInvitations({});
    expect(listed.invitations.map((i) => i.email)).toContain("erin@example.com");
    expect((await anonymous().getInvitationByToken({ token })).state).toBe(InvitationTokenState.VALID);
  });

  it("answers a clear error for expired, revoked and forged tokens", async () => {
    const expiredToken = await invite("frank@example.com", Role.VIEWER);
    await server.palisade.database.db
      .update(invitation)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(invitation.email, "frank@example.com"));
    expect((await anonymous().getInvitationByToken({ token: expiredToken })).state).toBe(
      InvitationTokenState.EXPIRED,
    );
    const expired = await errorOf(
      anonymous().acceptInvitationWithNewAccount({
        token: expiredToken,
        name: "Frank",
        password: "a-long-password-2",
      }),
    );
    expect(expired.code).toBe(Code.FailedPrecondition);
    expect(expired.rawMessage).toBe("This invitation has expired; ask Alice Admin to send a new one.");

    const revokedToken = await invite("grace@example.com", Role.VIEWER);
    const team = server.client(TeamService, admin);
    const pending = (await team.listInvitations({})).invitations.find((i) => i.email === "grace@example.com");
    await team.revokeInvitation({ id: pending?.id ?? "" });
    expect((await anonymous().getInvitationByToken({ token: revokedToken })).state).toBe(
      InvitationTokenState.REVOKED,
    );
    const revoked = await errorOf(
      anonymous().acceptInvitationWithNewAccount({
        token: revokedToken,
        name: "Grace",
        password: "a-long-password-3",
      }),
    );
    expect(revoked.rawMessage).toBe("This invitation was revoked; ask Alice Admin to send a new one.");

    const forged = "A".repeat(43);
    const lookup = await anonymous().getInvitationByToken({ token: forged });
    expect(lookup.state).toBe(InvitationTokenState.UNKNOWN);
    expect(lookup.invitation).toBeUndefined();
    const unknown = await errorOf(
      anonymous().acceptInvitationWithNewAccount({
        token: forged,
        name: "Eve",
        password: "a-long-password-4",
      }),
    );
    expect(unknown.code).toBe(Code.NotFound);
    expect(unknown.rawMessage).toMatch(/invitation link is not valid/);
    // The invitation id is not a token.
    const byId = await anonymous().getInvitationByToken({ token: pending?.id ?? "" });
    expect(byId.state).toBe(InvitationTokenState.UNKNOWN);
    const empty = await errorOf(anonymous().acceptInvitation({ token: "" }));
    expect(empty.code).toBe(Code.InvalidArgument);
  });

  it("an existing user accepts while signed in, and the tenant becomes their active one", async () => {
    const existing = await server.addMember({ role: "VIEWER", email: "heidi@example.com", name: "Heidi" });
    const token = await invite("heidi@example.com", Role.MODERATOR);
    const looked = await anonymous().getInvitationByToken({ token });
    expect(looked.invitation?.hasAccount).toBe(true);

    const signedOut = await errorOf(anonymous().acceptInvitation({ token }));
    expect(signedOut.code).toBe(Code.Unauthenticated);
    expect(signedOut.rawMessage).toBe("Sign in as heidi@example.com to accept this invitation.");
    const newAccount = await errorOf(
      anonymous().acceptInvitationWithNewAccount({ token, name: "Heidi 2", password: "a-long-password-5" }),
    );
    expect(newAccount.code).toBe(Code.AlreadyExists);

    // The invitee's session cookie sent from another site does not accept for them.
    const cookie = existing.credentials.kind === "cookie" ? existing.credentials.cookie : "";
    const crossSite = await fetch(`${server.url}/palisade.team.v1.TeamService/AcceptInvitation`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie, origin: "https://attacker.example" },
      body: JSON.stringify({ token }),
    });
    expect(crossSite.status).toBe(401);
    expect(((await crossSite.json()) as { code?: string }).code).toBe("unauthenticated");

    const before = await server.client(TenantService, existing.credentials).getCurrent({});
    expect(before.tenant?.id).toBe(server.defaultTenantId);
    const accepted = await server.client(TeamService, existing.credentials).acceptInvitation({ token });
    expect(accepted.tenantId).toBe(tenantId);
    const after = await server.client(TenantService, existing.credentials).getCurrent({});
    expect(after.tenant?.id).toBe(tenantId);
    expect(after.role).toBe(Role.MODERATOR);

    const twice = await errorOf(server.client(TeamService, existing.credentials).acceptInvitation({ token }));
    expect(twice.code).toBe(Code.FailedPrecondition);
    expect(twice.rawMessage).toMatch(/already been used/);
  });

  it("refuses a signed-in user whose address is not the invited one", async () => {
    const other = await server.addMember({ role: "VIEWER", email: "ivan@example.com", name: "Ivan" });
    const token = await invite("judy@example.com", Role.ADMINISTRATOR);
    const error = await errorOf(server.client(TeamService, other.credentials).acceptInvitation({ token }));
    expect(error.code).toBe(Code.PermissionDenied);
    expect(error.rawMessage).toBe(
      "This invitation is for judy@example.com, but you are signed in as ivan@example.com. Sign out, then sign in as judy@example.com to accept it.",
    );
    expect((await anonymous().getInvitationByToken({ token })).state).toBe(InvitationTokenState.VALID);
    const current = await server.client(TenantService, other.credentials).getCurrent({});
    expect(current.tenant?.id).toBe(server.defaultTenantId);
  });
});

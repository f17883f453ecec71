import { Code } from "@connectrpc/connect";
import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import { InvitationTokenState, TeamService } from "@palisade/api/gen/palisade/team/v1/team_pb";
import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "../src/auth/auth-schema";
import { membershipOpenPaths } from "../src/auth/membership-doors";
import { member } from "../src/modules/tenant/organization-schema";
import { errorOf } from "./support/call-error";
import { invitationTokenIn } from "./support/invitation-link";
import { type SmtpTestServer, startSmtpTestServer } from "./support/smtp-test-server";
import { type Credentials, startTestServer, type TestServer } from "./support/test-server";

/**
 * Membership, roles, invitations, tenants and API keys change through Palisade's methods only.
 * The identity layer's own endpoints for them are walked from the identity layer itself, so an
 * endpoint a new version adds is closed or this test fails.
 */
describe("the identity layer's membership endpoints", () => {
  let server: TestServer;
  let tenantId: string;
  let admin: { credentials: Credentials; memberId: string };
  let invitee: { credentials: Credentials; userId: string; email: string };

  beforeAll(async () => {
    server = await startTestServer("pglite");
    tenantId = await server.createTenant("Side Doors");
    admin = await server.addMember({ role: "ADMINISTRATOR", tenantId });
    // An existing, verified user of another tenant, invited to this one.
    invitee = await server.addMember({ role: "VIEWER" });
    await server
      .client(TeamService, admin.credentials)
      .inviteMember({ email: invitee.email, role: Role.ADMINISTRATOR });
  });
  afterAll(async () => {
    await server?.stop();
  });

  function bearer(credentials: Credentials): Record<string, string> {
    return credentials.kind === "bearer" ? { authorization: `Bearer ${credentials.token}` } : {};
  }

  async function call(path: string, credentials: Credentials, body: unknown = {}) {
    return fetch(`${server.url}/api/auth${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url, ...bearer(credentials) },
      body: JSON.stringify(body),
    });
  }

  it("every membership, invitation, tenant and API key endpoint but choosing and listing one's tenants answers 404", async () => {
    const paths = Object.values(server.palisade.auth.api as Record<string, { path?: string }>)
      .map((endpoint) => endpoint.path)
      .filter((path): path is string => !!path && /^\/(organization|api-key)\//.test(path));
    expect(paths.length).toBeGreaterThan(20);
    const open: string[] = [];
    for (const path of paths) {
      if (membershipOpenPaths.includes(path)) continue;
      const response = await call(path, admin.credentials, { organizationId: tenantId });
      if (response.status !== 404) open.push(`${path}: ${response.status}`);
    }
    expect(open).toEqual([]);
  });

  it("an invited user cannot find or accept the invitation by its id, and stays outside the tenant", async () => {
    expect((await call("/organization/list-user-invitations", invitee.credentials)).status).toBe(404);
    const pending = (
      await server.client(TeamService, admin.credentials).listInvitations({})
    ).invitations.find((i) => i.email === invitee.email);
    expect(pending).toBeDefined();
    const accepted = await call("/organization/accept-invitation", invitee.credentials, {
      invitationId: pending?.id,
    });
    expect(accepted.status).toBe(404);
    const memberships = await server.palisade.database.db
      .select()
      .from(member)
      .where(and(eq(member.organizationId, tenantId), eq(member.userId, invitee.userId)));
    expect(memberships).toEqual([]);
  });

  it("an administrator cannot make a member owner, or invite, around Palisade's methods", async () => {
    const promoted = await call("/organization/update-member-role", admin.credentials, {
      memberId: admin.memberId,
      role: "owner",
      organizationId: tenantId,
    });
    expect(promoted.status).toBe(404);
    const [row] = await server.palisade.database.db
      .select()
      .from(member)
      .where(eq(member.id, admin.memberId));
    expect(row?.role).toBe("ADMINISTRATOR");
    const invited = await call("/organization/invite-member", admin.credentials, {
      email: "mallory@example.com",
      role: "ADMINISTRATOR",
      organizationId: tenantId,
    });
    expect(invited.status).toBe(404);
  });

  it("choosing the active tenant among one's own still works", async () => {
    const response = await call("/organization/set-active", admin.credentials, { organizationId: tenantId });
    expect(response.status).toBe(200);
  });
});

/**
 * With open sign-up, someone who knows an invited address signs up with it and their own
 * password, and waits for the invitee to follow the confirmation mail. The account is theirs to
 * sign in to, but it holds nothing of the invitation: only the link's token joins the tenant.
 */
describe("an account signed up with an invited address", () => {
  let smtp: SmtpTestServer;
  let server: TestServer;
  let tenantId: string;
  let admin: Credentials;
  const victim = "victor@example.com";

  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    server = await startTestServer("pglite", { SMTP_URL: smtp.url, ALLOW_SIGN_UP: "true" });
    tenantId = await server.createTenant("Invited Team");
    admin = (await server.addMember({ role: "ADMINISTRATOR", tenantId })).credentials;
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.stop();
  });

  const post = (path: string, body: unknown, cookie = "") =>
    fetch(`${server.url}/api/auth${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url, cookie },
      body: JSON.stringify(body),
    });
  const cookieOf = (response: Response) =>
    response.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
  /** The link of the `nth` message (from 1) to the address, waiting for it. */
  async function mailedLink(nth: number, pattern: RegExp): Promise<string> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const mail = smtp.received.filter((m) => m.recipients.includes(victim))[nth - 1];
      const link = mail?.parsed.text?.match(pattern)?.[0];
      if (link) return link.replace(/^http:\/\/localhost:\d+/, server.url);
      if (Date.now() > deadline) throw new Error(`no message ${nth} to ${victim}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it("does not join the tenant without the link, and the link joins the invitee once", async () => {
    await server.client(TeamService, admin).inviteMember({ email: victim, role: Role.ADMINISTRATOR });
    const token = invitationTokenIn((await smtp.waitForMail(victim)).parsed.text ?? "");

    // The attacker signs up with the invited address; the invitee follows the confirmation mail.
    const password = "the attacker's own password";
    expect((await post("/sign-up/email", { email: victim, password, name: "Not Victor" })).status).toBe(200);
    const confirmed = await fetch(await mailedLink(2, /http\S+\/api\/auth\/verify-email\?token=\S+/), {
      redirect: "manual",
    });
    expect(confirmed.status).toBe(302);
    const signIn = await post("/sign-in/email", { email: victim, password });
    expect(signIn.status).toBe(200);
    const attacker: Credentials = { kind: "cookie", cookie: cookieOf(signIn) };

    // Signed in, the account is in no tenant, cannot list or accept the invitation by its id,
    // and Palisade's own method wants the token.
    const outside = await errorOf(server.client(TenantService, attacker).getCurrent({}));
    expect(outside.code).toBe(Code.PermissionDenied);
    expect(outside.rawMessage).toMatch(/not a member of any tenant/);
    expect((await post("/organization/list-user-invitations", {}, attacker.cookie)).status).toBe(404);
    const pending = (await server.client(TeamService, admin).listInvitations({})).invitations.find(
      (i) => i.email === victim,
    );
    expect(pending).toBeDefined();
    const byId = await post(
      "/organization/accept-invitation",
      { invitationId: pending?.id },
      attacker.cookie,
    );
    expect(byId.status).toBe(404);
    const noToken = await errorOf(server.client(TeamService, attacker).acceptInvitation({ token: "" }));
    expect(noToken.code).toBe(Code.InvalidArgument);
    expect((await server.client(TeamService).getInvitationByToken({ token })).state).toBe(
      InvitationTokenState.VALID,
    );
    const [account] = await server.palisade.database.db.select().from(user).where(eq(user.email, victim));
    const memberships = await server.palisade.database.db
      .select()
      .from(member)
      .where(eq(member.userId, account?.id ?? ""));
    expect(memberships).toEqual([]);

    // The invitee takes the account back through the reset mail (which ends the attacker's
    // session), signs in and accepts with the link's token: once.
    expect(
      (await post("/request-password-reset", { email: victim, redirectTo: "/reset-password" })).status,
    ).toBe(200);
    const resetLink = new URL(await mailedLink(3, /http\S+\/reset-password\?token=\S+/));
    const newPassword = "victor's new password";
    const reset = await post("/reset-password", { token: resetLink.searchParams.get("token"), newPassword });
    expect(reset.status).toBe(200);
    expect((await errorOf(server.client(TenantService, attacker).getCurrent({}))).code).toBe(
      Code.Unauthenticated,
    );
    const invitee: Credentials = {
      kind: "cookie",
      cookie: cookieOf(await server.signIn(victim, newPassword)),
    };
    const accepted = await server.client(TeamService, invitee).acceptInvitation({ token });
    expect(accepted.tenantId).toBe(tenantId);
    const current = await server.client(TenantService, invitee).getCurrent({});
    expect(current.tenant?.id).toBe(tenantId);
    expect(current.role).toBe(Role.ADMINISTRATOR);
    const twice = await errorOf(server.client(TeamService, invitee).acceptInvitation({ token }));
    expect(twice.code).toBe(Code.FailedPrecondition);
    expect(twice.rawMessage).toMatch(/already been used/);
  });
});

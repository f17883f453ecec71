import { Code } from "@connectrpc/connect";
import { AccountService, SignInMethod } from "@palisade/api/gen/palisade/account/v1/account_pb";
import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import { TeamService } from "@palisade/api/gen/palisade/team/v1/team_pb";
import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionCookieOptions } from "../src/auth/account-auth";
import { user } from "../src/auth/auth-schema";
import { errorOf } from "./support/call-error";
import { type SmtpTestServer, startSmtpTestServer } from "./support/smtp-test-server";
import { engines } from "./support/test-database";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  type Credentials,
  startTestServer,
  type TestServer,
} from "./support/test-server";

function cookieOf(response: Response): { kind: "cookie"; cookie: string } {
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return { kind: "cookie", cookie };
}

let clientCounter = 0;

describe("the session cookie", () => {
  it("is Secure only when Palisade is served over https, and always SameSite=Strict", () => {
    expect(sessionCookieOptions("https://palisade.example.com")).toMatchObject({
      useSecureCookies: true,
      defaultCookieAttributes: { sameSite: "strict", secure: true, httpOnly: true },
    });
    expect(sessionCookieOptions("http://localhost:8080")).toMatchObject({
      useSecureCookies: false,
      defaultCookieAttributes: { sameSite: "strict", secure: false },
    });
  });
});

describe.each(engines)("accounts on %s", (engine) => {
  let smtp: SmtpTestServer;
  let server: TestServer;
  let closed: TestServer;

  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    const env = {
      SMTP_URL: smtp.url,
      TRUST_PROXY: "true",
      MAIL_RETRY_LIMIT: "1",
      MAIL_RETRY_DELAY_SECONDS: "1",
    };
    [server, closed] = await Promise.all([
      startTestServer(engine, { ...env, ALLOW_SIGN_UP: "true" }),
      startTestServer(engine, env),
    ]);
  });
  afterAll(async () => {
    await Promise.all([server?.stop(), closed?.stop()]);
    await smtp?.stop();
  });

  // Rate limits are kept per client address: each test presents its own through the proxy header.
  function newClientAddress(): string {
    clientCounter += 1;
    return `203.0.113.${clientCounter + (engine === "pglite" ? 0 : 100)}`;
  }

  function post(target: TestServer, path: string, body: unknown, clientAddress: string): Promise<Response> {
    return fetch(`${target.url}/api/auth${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        origin: target.url,
        "x-forwarded-for": clientAddress,
        "user-agent": "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
      },
      body: JSON.stringify(body),
    });
  }

  function uniqueEmail(what: string): string {
    return `${what}-${engine}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  }

  /** The link of the newest message to the address, waiting for it. */
  async function linkMailedTo(email: string, before: number, pattern: RegExp): Promise<string> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const mails = smtp.received.filter((m) => m.recipients.includes(email));
      if (mails.length > before) {
        const link = (mails.at(-1)?.parsed.text ?? "").match(pattern)?.[0];
        if (!link) throw new Error(`no link in the message to ${email}`);
        return link;
      }
      if (Date.now() > deadline) throw new Error(`no mail to ${email} arrived`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it("refuses sign-up while ALLOW_SIGN_UP is off", async () => {
    const email = uniqueEmail("closed");
    const response = await post(
      closed,
      "/sign-up/email",
      { email, password: "a-long-password-1", name: "Closed Door" },
      newClientAddress(),
    );
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({
      code: "SIGN_UP_DISABLED",
      message: "Sign-up is turned off. Ask an administrator of your organisation to invite you.",
    });
    const accounts = await closed.palisade.database.db.select().from(user).where(eq(user.email, email));
    expect(accounts).toEqual([]);
  });

  it("with sign-up on, a password account signs in only after its address is verified", async () => {
    const client = newClientAddress();
    const email = uniqueEmail("signup");
    const password = "a-long-password-2";
    const signUp = await post(server, "/sign-up/email", { email, password, name: "Sam Signup" }, client);
    expect(signUp.status).toBe(200);
    // No session before the address is proven.
    expect(signUp.headers.getSetCookie().join()).not.toContain("session_token=");
    const refused = await post(server, "/sign-in/email", { email, password }, client);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: "EMAIL_NOT_VERIFIED" });

    const link = await linkMailedTo(email, 0, /http\S+\/api\/auth\/verify-email\?token=\S+/);
    const mail = smtp.received.filter((m) => m.recipients.includes(email)).at(-1);
    expect(mail?.parsed.subject).toBe("Confirm your e-mail address for Palisade");
    expect(mail?.parsed.text).toContain("This link expires on");
    expect(new URL(link).searchParams.get("callbackURL")).toBe("/email-confirmed");
    const verified = await fetch(link.replace(/^http:\/\/localhost:\d+/, server.url), { redirect: "manual" });
    expect(verified.status).toBe(302);
    expect(verified.headers.get("location")).toBe("/email-confirmed");
    expect(verified.headers.getSetCookie().join()).toContain("session_token=");

    const signIn = await post(server, "/sign-in/email", { email, password }, client);
    expect(signIn.status).toBe(200);
  });

  it("tells the sign-in page whether sign-up is open, without sign-in", async () => {
    expect(await server.client(AccountService).getSignUpOptions({})).toMatchObject({
      signUpAllowed: true,
      minPasswordLength: 10,
      maxPasswordLength: 128,
    });
    expect((await closed.client(AccountService).getSignUpOptions({})).signUpAllowed).toBe(false);
  });

  it("a confirmed account of no tenant uses its account, and nothing of a tenant", async () => {
    const client = newClientAddress();
    const email = uniqueEmail("tenantless");
    const password = "a-long-password-3";
    expect(
      (await post(server, "/sign-up/email", { email, password, name: "Nora None" }, client)).status,
    ).toBe(200);
    const link = await linkMailedTo(email, 0, /http\S+\/api\/auth\/verify-email\?token=\S+/);
    await fetch(link.replace(/^http:\/\/localhost:\d+/, server.url), { redirect: "manual" });
    const signIn = await post(server, "/sign-in/email", { email, password }, client);
    expect(signIn.status).toBe(200);
    const credentials = cookieOf(signIn);

    expect((await errorOf(server.client(TenantService, credentials).getCurrent({}))).code).toBe(
      Code.PermissionDenied,
    );
    const account = server.client(AccountService, credentials);
    const { sessions } = await account.listSessions({});
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    const history = await account.listSignInHistory({});
    expect(history.items.map((e) => [e.method, e.success])).toEqual([
      [SignInMethod.PASSWORD, true],
      [SignInMethod.EMAIL_VERIFICATION, true],
    ]);
    const other = sessions.find((s) => !s.current);
    if (other) await account.revokeSession({ sessionId: other.id });
    expect(await account.revokeAllSessions({})).toMatchObject({ revoked: expect.any(Number) });
    expect((await errorOf(account.listSessions({}))).code).toBe(Code.Unauthenticated);
  });

  it("a sign-up with an invited address, even verified, does not get the invitation", async () => {
    const admin: Credentials = cookieOf(await server.signIn(ADMIN_EMAIL, ADMIN_PASSWORD));
    const email = uniqueEmail("invited");
    await server.client(TeamService, admin).inviteMember({ email, role: Role.ADMINISTRATOR });
    const client = newClientAddress();
    const password = "an-attackers-password";
    expect((await post(server, "/sign-up/email", { email, password, name: "Not Them" }, client)).status).toBe(
      200,
    );
    const link = await linkMailedTo(email, 1, /http\S+\/api\/auth\/verify-email\?token=\S+/);
    await fetch(link.replace(/^http:\/\/localhost:\d+/, server.url), { redirect: "manual" });
    const signIn = await post(server, "/sign-in/email", { email, password }, client);
    expect(signIn.status).toBe(200);
    const error = await errorOf(server.client(TenantService, cookieOf(signIn)).getCurrent({}));
    expect(error.code).toBe(Code.PermissionDenied);
    const pending = await server.client(TeamService, admin).listInvitations({});
    expect(pending.invitations.map((i) => i.email)).toContain(email);
  });

  it("resets a password from the e-mailed link, once, and answers the same for an unknown address", async () => {
    const client = newClientAddress();
    const email = uniqueEmail("reset");
    const member = await server.addMember({ role: "VIEWER", email });

    const asked = await post(server, "/request-password-reset", { email }, client);
    expect(asked.status).toBe(200);
    const answer = await asked.json();
    const unknown = await post(server, "/request-password-reset", { email: uniqueEmail("nobody") }, client);
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toEqual(answer);

    const link = await linkMailedTo(email, 0, /http\S+\/reset-password\?token=\S+/);
    const mail = smtp.received.filter((m) => m.recipients.includes(email)).at(-1);
    expect(mail?.parsed.subject).toBe("Reset your Palisade password");
    expect(String(mail?.parsed.html)).toContain("Choose a new password");
    const token = new URL(link).searchParams.get("token");
    expect(token).toBeTruthy();

    const newPassword = "a-brand-new-password";
    const reset = await post(server, "/reset-password", { token, newPassword }, client);
    expect(reset.status).toBe(200);
    // Every session ends with the reset.
    expect((await errorOf(server.client(TenantService, member.credentials).getCurrent({}))).code).toBe(
      Code.Unauthenticated,
    );
    const again = await post(
      server,
      "/reset-password",
      { token, newPassword: "yet-another-password" },
      client,
    );
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ code: "INVALID_TOKEN" });
    const forged = await post(server, "/reset-password", { token: "forged-token", newPassword }, client);
    expect(forged.status).toBe(400);

    expect((await post(server, "/sign-in/email", { email, password: newPassword }, client)).status).toBe(200);
    const old = await post(server, "/sign-in/email", { email, password: "yet-another-password" }, client);
    expect(old.status).toBe(401);
  });

  it("limits reset e-mails per address with a clear answer, and checks the address", async () => {
    const email = uniqueEmail("limited");
    await server.addMember({ role: "VIEWER", email });
    for (let i = 0; i < 3; i++) {
      expect((await post(server, "/request-password-reset", { email }, newClientAddress())).status).toBe(200);
    }
    const limited = await post(server, "/request-password-reset", { email }, newClientAddress());
    expect(limited.status).toBe(429);
    const seconds = Number(limited.headers.get("retry-after"));
    expect(seconds).toBeGreaterThan(0);
    expect(((await limited.json()) as { message: string }).message).toBe(
      `Too many requests for this address. Try again in ${seconds} seconds.`,
    );
    // The same for an address without an account: the limit reveals nothing.
    const nobody = uniqueEmail("nobody");
    for (let i = 0; i < 3; i++)
      await post(server, "/request-password-reset", { email: nobody }, newClientAddress());
    expect(
      (await post(server, "/request-password-reset", { email: nobody }, newClientAddress())).status,
    ).toBe(429);
    // Another address is not held back.
    const other = await post(
      server,
      "/request-password-reset",
      { email: uniqueEmail("other") },
      newClientAddress(),
    );
    expect(other.status).toBe(200);

    const invalid = await post(
      server,
      "/request-password-reset",
      { email: "not-an-email" },
      newClientAddress(),
    );
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { message: string }).message).toBe(
      '"not-an-email" is not a valid email',
    );
  });

  it("records successful and refused sign-ins in the account's history", async () => {
    const client = newClientAddress();
    const email = uniqueEmail("history");
    await server.addMember({ role: "VIEWER", email, name: "Hana History" });
    const password = await setPassword(email, "the-right-password");
    expect(
      (await post(server, "/sign-in/email", { email, password: "a-wrong-password" }, client)).status,
    ).toBe(401);
    const signIn = await post(server, "/sign-in/email", { email, password }, client);
    expect(signIn.status).toBe(200);

    const history = await server.client(AccountService, cookieOf(signIn)).listSignInHistory({});
    const [latest, refused] = history.items;
    expect(latest).toMatchObject({
      method: SignInMethod.PASSWORD,
      success: true,
      failureReason: "",
      ipAddress: client,
      device: "Firefox on Linux",
    });
    expect(refused).toMatchObject({
      method: SignInMethod.PASSWORD,
      success: false,
      failureReason: "Wrong password",
      ipAddress: client,
    });
    expect(history.pagination?.totalItems).toBeGreaterThanOrEqual(2);
    const firstPage = await server
      .client(AccountService, cookieOf(signIn))
      .listSignInHistory({ pagination: { position: { case: "page", value: 1 }, limit: 1 } });
    expect(firstPage.items).toHaveLength(1);
    expect(firstPage.items[0]?.id).toBe(latest?.id);
  });

  it("lists the sessions, signs one out, and signs out everywhere", async () => {
    const email = uniqueEmail("sessions");
    await server.addMember({ role: "VIEWER", email });
    const password = await setPassword(email, "sessions-password");
    const laptop = cookieOf(await post(server, "/sign-in/email", { email, password }, newClientAddress()));
    const phone = cookieOf(await post(server, "/sign-in/email", { email, password }, newClientAddress()));
    const tablet = cookieOf(await post(server, "/sign-in/email", { email, password }, newClientAddress()));
    const account = server.client(AccountService, laptop);

    const { sessions } = await account.listSessions({});
    expect(sessions.length).toBeGreaterThanOrEqual(3);
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    const current = sessions.find((s) => s.current);
    expect(current?.device).toBe("Firefox on Linux");

    // The phone's session, ended from the laptop.
    const phoneSessions = await server.client(AccountService, phone).listSessions({});
    const phoneId = phoneSessions.sessions.find((s) => s.current)?.id ?? "";
    await account.revokeSession({ sessionId: phoneId });
    expect((await errorOf(server.client(TenantService, phone).getCurrent({}))).code).toBe(
      Code.Unauthenticated,
    );
    expect((await errorOf(account.revokeSession({ sessionId: phoneId }))).code).toBe(Code.NotFound);
    // Another user's session cannot be ended.
    const adminSignIn = cookieOf(await server.signIn(ADMIN_EMAIL, ADMIN_PASSWORD));
    const adminSession = (await server.client(AccountService, adminSignIn).listSessions({})).sessions.find(
      (s) => s.current,
    );
    expect((await errorOf(account.revokeSession({ sessionId: adminSession?.id ?? "" }))).code).toBe(
      Code.NotFound,
    );

    const { revoked } = await account.revokeAllSessions({});
    expect(revoked).toBeGreaterThanOrEqual(2);
    for (const credentials of [laptop, tablet]) {
      expect((await errorOf(server.client(TenantService, credentials).getCurrent({}))).code).toBe(
        Code.Unauthenticated,
      );
    }
    expect((await server.client(TenantService, adminSignIn).getCurrent({})).user?.email).toBe(ADMIN_EMAIL);
  });

  it("sets the session cookie SameSite=Strict and HttpOnly", async () => {
    const response = await server.signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
    const cookie = response.headers.getSetCookie().find((c) => c.includes("session_token="));
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/HttpOnly/i);
  });

  it("refuses account methods to an API key", async () => {
    const key = await server.createApiKey({ tenantId: server.defaultTenantId, role: "INTEGRATOR" });
    const error = await errorOf(
      server.client(AccountService, { kind: "bearer", token: key }).listSessions({}),
    );
    expect(error.code).toBe(Code.PermissionDenied);
  });

  /** Gives the member a known password through the server's own password hashing. */
  async function setPassword(email: string, password: string): Promise<string> {
    const context = await server.palisade.auth.$context;
    const found = await context.internalAdapter.findUserByEmail(email);
    if (!found) throw new Error(`no account ${email}`);
    await context.internalAdapter.updatePassword(found.user.id, await context.password.hash(password));
    return password;
  }
});

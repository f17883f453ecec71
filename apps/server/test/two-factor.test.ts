import { TeamService } from "@palisade/api/gen/palisade/team/v1/team_pb";
import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { eq } from "drizzle-orm";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "../src/auth/auth-schema";
import { auditLog } from "../src/modules/audit/audit-schema";
import { member } from "../src/modules/tenant/organization-schema";
import { type SmtpTestServer, startSmtpTestServer } from "./support/smtp-test-server";
import { identityFlowEngines } from "./support/test-database";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, type TestServer } from "./support/test-server";

const PASSWORD = "Authenticator-password-1";
let clientCounter = 0;

/** The cookies a response sets, as a Cookie header (added to those already held). */
function withCookies(held: string, response: Response): string {
  const jar = new Map(
    held
      .split("; ")
      .filter(Boolean)
      .map((pair) => [pair.split("=")[0], pair] as const),
  );
  for (const set of response.headers.getSetCookie()) {
    const pair = set.split(";")[0] ?? "";
    const name = pair.split("=")[0] ?? "";
    if (/max-age=0/i.test(set) || pair.endsWith("=")) jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join("; ");
}

describe.each(identityFlowEngines)("authenticator app as a second factor on %s", (engine) => {
  let smtp: SmtpTestServer;
  let server: TestServer;

  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    server = await startTestServer(engine, { SMTP_URL: smtp.url, TRUST_PROXY: "true" });
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.stop();
  });

  function post(path: string, body: unknown, cookie = "", client = "192.0.2.1"): Promise<Response> {
    return fetch(`${server.url}/api/auth${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url, cookie, "x-forwarded-for": client },
      body: JSON.stringify(body),
    });
  }

  function newClient(): string {
    clientCounter += 1;
    return `192.0.2.${clientCounter + (engine === "pglite" ? 10 : 110)}`;
  }

  async function newMember(): Promise<string> {
    const email = `mfa-${engine}-${crypto.randomUUID().slice(0, 8)}@palisade.test`;
    const { db } = server.palisade.database;
    const created = await server.palisade.auth.api.signUpEmail({
      body: { email, password: PASSWORD, name: "Grace Hopper" },
    });
    await db.update(user).set({ emailVerified: true }).where(eq(user.id, created.user.id));
    await db.insert(member).values({
      id: crypto.randomUUID(),
      organizationId: server.defaultTenantId,
      userId: created.user.id,
      role: "EDITOR",
    });
    return email;
  }

  async function passwordSession(email: string, client: string): Promise<Response> {
    return post("/sign-in/email", { email, password: PASSWORD }, "", client);
  }

  /** Enrols an authenticator and confirms it with a code; returns the secret and backup codes. */
  async function enrol(email: string, client: string) {
    const signIn = await passwordSession(email, client);
    expect(signIn.status).toBe(200);
    let cookie = withCookies("", signIn);
    const enable = await post("/two-factor/enable", { password: PASSWORD }, cookie, client);
    expect(enable.status).toBe(200);
    cookie = withCookies(cookie, enable);
    const { totpURI, backupCodes } = (await enable.json()) as { totpURI: string; backupCodes: string[] };
    const uri = new URL(totpURI);
    expect(uri.protocol).toBe("otpauth:");
    expect(decodeURIComponent(uri.pathname)).toContain(email);
    expect(uri.searchParams.get("issuer")).toBe("Palisade");
    const secret = uri.searchParams.get("secret") ?? "";
    expect(backupCodes).toHaveLength(10);
    expect(new Set(backupCodes).size).toBe(10);

    // Not on until a code from the app confirms it.
    const [before] = await server.palisade.database.db.select().from(user).where(eq(user.email, email));
    expect(before?.twoFactorEnabled).toBe(false);
    const confirm = await post(
      "/two-factor/verify-totp",
      { code: await generate({ secret }) },
      cookie,
      client,
    );
    expect(confirm.status).toBe(200);
    const [after] = await server.palisade.database.db.select().from(user).where(eq(user.email, email));
    expect(after?.twoFactorEnabled).toBe(true);
    return { secret, backupCodes };
  }

  /** A password sign-in that stops at the second factor; returns the pending cookie. */
  async function firstFactor(email: string, client: string, held = ""): Promise<string> {
    const response = await post("/sign-in/email", { email, password: PASSWORD }, held, client);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ twoFactorRedirect: true, twoFactorMethods: ["totp"] });
    const cookie = withCookies(held, response);
    expect(cookie).not.toContain("palisade.session_token=");
    expect(cookie).toContain("palisade.two_factor=");
    return cookie;
  }

  it("asks for the app's code after the password, and refuses a wrong one", async () => {
    const client = newClient();
    const email = await newMember();
    const { secret } = await enrol(email, client);

    const pending = await firstFactor(email, client);
    const code = await generate({ secret });
    const wrong = await post(
      "/two-factor/verify-totp",
      { code: code === "000000" ? "111111" : "000000" },
      pending,
      client,
    );
    expect(wrong.status).toBe(401);
    expect(wrong.headers.getSetCookie().join()).not.toContain("palisade.session_token=");

    const right = await post("/two-factor/verify-totp", { code }, pending, client);
    expect(right.status).toBe(200);
    const cookie = withCookies(pending, right);
    expect(cookie).toContain("palisade.session_token=");
    const current = await server.client(TenantService, { kind: "cookie", cookie }).getCurrent({});
    expect(current.tenant?.id).toBe(server.defaultTenantId);
  });

  it("accepts each backup code once", async () => {
    const client = newClient();
    const email = await newMember();
    const { backupCodes } = await enrol(email, client);
    const code = backupCodes[0] ?? "";

    const first = await post(
      "/two-factor/verify-backup-code",
      { code },
      await firstFactor(email, client),
      client,
    );
    expect(first.status).toBe(200);
    expect(withCookies("", first)).toContain("palisade.session_token=");

    const again = await post(
      "/two-factor/verify-backup-code",
      { code },
      await firstFactor(email, client),
      client,
    );
    expect(again.status).toBe(401);
  });

  it("trusts a device for 30 days when asked", async () => {
    const client = newClient();
    const email = await newMember();
    const { secret } = await enrol(email, client);
    const pending = await firstFactor(email, client);
    const verified = await post(
      "/two-factor/verify-totp",
      { code: await generate({ secret }), trustDevice: true },
      pending,
      client,
    );
    expect(verified.status).toBe(200);
    const trust = verified.headers.getSetCookie().find((c) => c.startsWith("palisade.trust_device="));
    expect(trust).toMatch(/Max-Age=2592000/i);
    const trusted = withCookies("", verified)
      .split("; ")
      .filter((pair) => pair.startsWith("palisade.trust_device="))
      .join("; ");

    // The trusted browser signs in with the password alone; another still needs the code.
    const again = await post("/sign-in/email", { email, password: PASSWORD }, trusted, client);
    expect(again.status).toBe(200);
    expect(withCookies("", again)).toContain("palisade.session_token=");
    await firstFactor(email, client);
  });

  it("asks for the app's code after an e-mailed code, and sends no sign-in link", async () => {
    const client = newClient();
    const email = await newMember();
    const { secret } = await enrol(email, client);

    const before = smtp.received.length;
    const send = await post("/email-otp/send-verification-otp", { email, type: "sign-in" }, "", client);
    expect(send.status).toBe(200);
    const deadline = Date.now() + 15_000;
    while (!smtp.received.slice(before).some((m) => m.recipients.includes(email))) {
      if (Date.now() > deadline) throw new Error("no code arrived");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const otp = smtp.received.at(-1)?.parsed.text?.match(/^(\d{6})$/m)?.[1] ?? "";
    const signIn = await post("/sign-in/email-otp", { email, otp }, "", client);
    expect(signIn.status).toBe(200);
    expect(await signIn.json()).toMatchObject({ twoFactorRedirect: true });
    const pending = withCookies("", signIn);
    expect(pending).not.toContain("palisade.session_token=");
    const done = await post("/two-factor/verify-totp", { code: await generate({ secret }) }, pending, client);
    expect(done.status).toBe(200);
    expect(withCookies("", done)).toContain("palisade.session_token=");

    const link = await post("/sign-in/magic-link", { email }, "", client);
    expect(link.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(
      smtp.received.filter((m) => m.recipients.includes(email) && /link/.test(m.parsed.subject ?? "")),
    ).toEqual([]);
  });

  it("shows MFA in the members list, and an administrator resets it", async () => {
    const client = newClient();
    const email = await newMember();
    await enrol(email, client);
    const adminSignIn = await server.signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
    const admin = server.client(TeamService, { kind: "cookie", cookie: withCookies("", adminSignIn) });
    const listed = await admin.listMembers({ search: email });
    const row = listed.items.find((m) => m.email === email);
    expect(row?.mfaEnabled).toBe(true);
    expect(row?.signInMethods).toContain("authenticator");

    await admin.resetMemberMfa({ memberId: row?.id ?? "" });
    const after = (await admin.listMembers({ search: email })).items.find((m) => m.email === email);
    expect(after?.mfaEnabled).toBe(false);
    expect(after?.signInMethods).not.toContain("authenticator");
    const audited = await server.palisade.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetId, row?.id ?? ""));
    expect(audited.map((entry) => entry.action)).toContain("TeamService.ResetMemberMfa");

    // The password alone signs in again.
    const signIn = await passwordSession(email, client);
    expect(signIn.status).toBe(200);
    expect(withCookies("", signIn)).toContain("palisade.session_token=");
  });
});

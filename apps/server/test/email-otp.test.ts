import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user, verification } from "../src/auth/auth-schema";
import { type SmtpTestServer, startSmtpTestServer } from "./support/smtp-test-server";
import { identityFlowEngines } from "./support/test-database";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, type TestServer } from "./support/test-server";

let clientCounter = 0;

describe.each(identityFlowEngines)("sign-in with an e-mailed code on %s", (engine) => {
  let smtp: SmtpTestServer;
  let server: TestServer;

  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    // Rate limits are kept per client address: each test presents its own, through the proxy header.
    server = await startTestServer(engine, {
      SMTP_URL: smtp.url,
      TRUST_PROXY: "true",
      MAIL_RETRY_LIMIT: "1",
      MAIL_RETRY_DELAY_SECONDS: "1",
    });
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.stop();
  });

  function newClientAddress(): string {
    clientCounter += 1;
    return `198.51.100.${clientCounter + (engine === "pglite" ? 0 : 100)}`;
  }

  function post(path: string, body: unknown, clientAddress: string): Promise<Response> {
    return fetch(`${server.url}/api/auth${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url, "x-forwarded-for": clientAddress },
      body: JSON.stringify(body),
    });
  }

  function mailsTo(address: string) {
    return smtp.received.filter((m) => m.recipients.includes(address));
  }

  /** Asks for a code and returns the one that arrives by e-mail. */
  async function requestCode(email: string, clientAddress: string): Promise<string> {
    const before = mailsTo(email).length;
    const response = await post(
      "/email-otp/send-verification-otp",
      { email, type: "sign-in" },
      clientAddress,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true });
    const deadline = Date.now() + 15_000;
    while (mailsTo(email).length === before) {
      if (Date.now() > deadline) throw new Error(`no code arrived for ${email}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const text = mailsTo(email).at(-1)?.parsed.text ?? "";
    const code = text.match(/^(\d{6})$/m)?.[1];
    if (!code) throw new Error(`no code in: ${text}`);
    return code;
  }

  function signInWithCode(email: string, otp: string, clientAddress: string) {
    return post("/sign-in/email-otp", { email, otp }, clientAddress);
  }

  async function verifiedMember(): Promise<string> {
    const email = `otp-${engine}-${crypto.randomUUID().slice(0, 8)}@palisade.test`;
    const member = await server.addMember({ role: "EDITOR", email });
    await server.palisade.database.db
      .update(user)
      .set({ emailVerified: true })
      .where(eq(user.id, member.userId));
    return email;
  }

  function wrongCode(code: string): string {
    return code === "000000" ? "111111" : "000000";
  }

  it("e-mails a 6-digit code that signs in with a session usable on an RPC", async () => {
    const client = newClientAddress();
    const code = await requestCode(ADMIN_EMAIL, client);
    expect(code).toMatch(/^\d{6}$/);

    const mail = mailsTo(ADMIN_EMAIL).at(-1);
    expect(mail?.parsed.subject).toBe("Your Palisade sign-in code");
    for (const part of [mail?.parsed.text ?? "", String(mail?.parsed.html)]) {
      expect(part).toContain("Palisade");
      expect(part).toContain(code);
      expect(part).toContain("valid for 10 minutes");
      expect(part).toContain("If you did not ask for a code");
    }

    const response = await signInWithCode(ADMIN_EMAIL, code, client);
    expect(response.status).toBe(200);
    const cookie = response.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    expect(cookie).toContain("palisade.session_token=");
    const current = await server.client(TenantService, { kind: "cookie", cookie }).getCurrent({});
    expect(current.tenant?.id).toBe(server.defaultTenantId);

    // The code is spent; the password still works.
    const reused = await signInWithCode(ADMIN_EMAIL, code, client);
    expect(reused.status).toBe(400);
    expect(await reused.json()).toMatchObject({ code: "INVALID_OTP" });
    expect((await server.signIn(ADMIN_EMAIL, ADMIN_PASSWORD)).status).toBe(200);
  });

  it("refuses a wrong code, and after five wrong tries the right one too", async () => {
    const client = newClientAddress();
    const email = await verifiedMember();
    const code = await requestCode(email, client);
    const wrong = await signInWithCode(email, wrongCode(code), client);
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ code: "INVALID_OTP" });
    for (let i = 0; i < 4; i++)
      expect((await signInWithCode(email, wrongCode(code), client)).status).toBe(400);

    const right = await signInWithCode(email, code, client);
    expect(right.status).toBe(403);
    expect(await right.json()).toMatchObject({ code: "TOO_MANY_ATTEMPTS" });
    expect(right.headers.getSetCookie().join()).not.toContain("palisade.session_token=");
  });

  it("refuses an expired code", async () => {
    const client = newClientAddress();
    const email = await verifiedMember();
    const code = await requestCode(email, client);
    const [stored] = await server.palisade.database.db
      .select()
      .from(verification)
      .where(eq(verification.identifier, `sign-in-otp-${email}`));
    expect(stored).toBeDefined();
    // The code is stored hashed, never as sent.
    expect(stored?.value).not.toContain(code);
    const validFor = (stored?.expiresAt.getTime() ?? 0) - Date.now();
    expect(validFor).toBeGreaterThan(9 * 60_000);
    expect(validFor).toBeLessThanOrEqual(10 * 60_000);
    // Ten minutes later, as far as the stored code can tell.
    await server.palisade.database.db
      .update(verification)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verification.identifier, `sign-in-otp-${email}`));

    const response = await signInWithCode(email, code, client);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "OTP_EXPIRED" });
  });

  it("answers an unknown address the same way and sends nothing", async () => {
    const client = newClientAddress();
    const unknown = `nobody-${engine}@palisade.test`;
    const response = await post(
      "/email-otp/send-verification-otp",
      { email: unknown, type: "sign-in" },
      client,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true });
    // An account that never proved its address gets no code either, and keeps its password.
    const unverified = `unverified-${engine}@palisade.test`;
    const member = await server.addMember({ role: "EDITOR", email: unverified });
    await server.palisade.database.db
      .update(user)
      .set({ emailVerified: false })
      .where(eq(user.id, member.userId));
    const second = await post(
      "/email-otp/send-verification-otp",
      { email: unverified, type: "sign-in" },
      client,
    );
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual({ success: true });

    // Give the mail job time to run, had it been queued.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(smtp.attempts).not.toContain(unknown);
    expect(smtp.attempts).not.toContain(unverified);
    const guessed = await signInWithCode(unknown, "123456", client);
    expect(guessed.status).toBe(400);
    expect(await guessed.json()).toMatchObject({ code: "INVALID_OTP" });
  });

  it("limits code requests per client address", async () => {
    const client = newClientAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await post(
        "/email-otp/send-verification-otp",
        { email: `x${i}@example.com`, type: "sign-in" },
        client,
      );
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it("offers codes for signing in only", async () => {
    const response = await post(
      "/email-otp/request-password-reset",
      { email: ADMIN_EMAIL },
      newClientAddress(),
    );
    expect(response.status).toBe(404);
  });
});

import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user, verification } from "../src/auth/auth-schema";
import { type SmtpTestServer, startSmtpTestServer } from "./support/smtp-test-server";
import { identityFlowEngines } from "./support/test-database";
import { ADMIN_EMAIL, startTestServer, type TestServer } from "./support/test-server";

let clientCounter = 0;

describe.each(identityFlowEngines)("sign-in with an e-mailed link on %s", (engine) => {
  let smtp: SmtpTestServer;
  let server: TestServer;

  beforeAll(async () => {
    smtp = await startSmtpTestServer();
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
    return `203.0.113.${clientCounter + (engine === "pglite" ? 0 : 100)}`;
  }

  function requestLink(email: string, clientAddress: string): Promise<Response> {
    return fetch(`${server.url}/api/auth/sign-in/magic-link`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url, "x-forwarded-for": clientAddress },
      body: JSON.stringify({ email }),
    });
  }

  /** Follows the link's token the way the sign-in link page does: a navigation to the verify address. */
  function followLink(token: string, clientAddress: string): Promise<Response> {
    const query = new URLSearchParams({
      token,
      callbackURL: "/sign-in-link?signedIn=1",
      errorCallbackURL: "/sign-in-link",
    });
    return fetch(`${server.url}/api/auth/magic-link/verify?${query}`, {
      redirect: "manual",
      headers: { "x-forwarded-for": clientAddress },
    });
  }

  /** Where a followed link sends the browser: path and query on this server. */
  function landing(response: Response): string {
    const location = new URL(response.headers.get("location") ?? "", server.url);
    return location.pathname + location.search;
  }

  function mailsTo(address: string) {
    return smtp.received.filter((m) => m.recipients.includes(address));
  }

  async function linkTokenFor(email: string, clientAddress: string): Promise<string> {
    const before = mailsTo(email).length;
    const response = await requestLink(email, clientAddress);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: true });
    const deadline = Date.now() + 15_000;
    while (mailsTo(email).length === before) {
      if (Date.now() > deadline) throw new Error(`no link arrived for ${email}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const text = mailsTo(email).at(-1)?.parsed.text ?? "";
    const token = text.match(/\/sign-in-link\?token=([A-Za-z0-9%_-]+)/)?.[1];
    if (!token) throw new Error(`no link in: ${text}`);
    return decodeURIComponent(token);
  }

  async function verifiedMember(): Promise<string> {
    const email = `link-${engine}-${crypto.randomUUID().slice(0, 8)}@palisade.test`;
    const member = await server.addMember({ role: "EDITOR", email });
    await server.palisade.database.db
      .update(user)
      .set({ emailVerified: true })
      .where(eq(user.id, member.userId));
    return email;
  }

  it("e-mails a link that signs in once, with a session usable on an RPC", async () => {
    const client = newClientAddress();
    const token = await linkTokenFor(ADMIN_EMAIL, client);
    const mail = mailsTo(ADMIN_EMAIL).at(-1);
    expect(mail?.parsed.subject).toBe("Your Palisade sign-in link");
    expect(mail?.parsed.text).toMatch(/^https?:\/\/\S+\/sign-in-link\?token=/m);
    expect(mail?.parsed.text).toContain("It works once");

    const response = await followLink(token, client);
    expect(response.status).toBe(302);
    expect(landing(response)).toBe("/sign-in-link?signedIn=1");
    const cookie = response.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    expect(cookie).toContain("palisade.session_token=");
    const current = await server.client(TenantService, { kind: "cookie", cookie }).getCurrent({});
    expect(current.tenant?.id).toBe(server.defaultTenantId);

    // The same link a second time signs nobody in.
    const replayed = await followLink(token, client);
    expect(replayed.status).toBe(302);
    expect(landing(replayed)).toBe("/sign-in-link?error=INVALID_TOKEN");
    expect(replayed.headers.getSetCookie().join()).not.toContain("palisade.session_token=");
  });

  it("stores the token hashed for ten minutes and refuses it once expired", async () => {
    const client = newClientAddress();
    const email = await verifiedMember();
    const token = await linkTokenFor(email, client);
    const stored = await server.palisade.database.db
      .select()
      .from(verification)
      .where(like(verification.identifier, "magic-link:%"));
    const mine = stored.filter((row) => row.value.includes(email));
    expect(mine).toHaveLength(1);
    expect(mine[0]?.identifier).not.toContain(token);
    const validFor = (mine[0]?.expiresAt.getTime() ?? 0) - Date.now();
    expect(validFor).toBeGreaterThan(9 * 60_000);
    expect(validFor).toBeLessThanOrEqual(10 * 60_000);
    await server.palisade.database.db
      .update(verification)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verification.identifier, mine[0]?.identifier ?? ""));

    const response = await followLink(token, client);
    expect(landing(response)).toBe("/sign-in-link?error=INVALID_TOKEN");
    expect(response.headers.getSetCookie().join()).not.toContain("palisade.session_token=");
  });

  it("refuses a made-up token", async () => {
    const response = await followLink("a".repeat(32), newClientAddress());
    expect(landing(response)).toBe("/sign-in-link?error=INVALID_TOKEN");
  });

  it("answers an unknown address the same way, sends nothing and creates no account", async () => {
    const client = newClientAddress();
    const unknown = `nobody-link-${engine}@palisade.test`;
    const response = await requestLink(unknown, client);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: true });
    const unverified = `unverified-link-${engine}@palisade.test`;
    const member = await server.addMember({ role: "EDITOR", email: unverified });
    await server.palisade.database.db
      .update(user)
      .set({ emailVerified: false })
      .where(eq(user.id, member.userId));
    const second = await requestLink(unverified, client);
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual({ status: true });

    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(smtp.attempts).not.toContain(unknown);
    expect(smtp.attempts).not.toContain(unverified);
    const accounts = await server.palisade.database.db.select().from(user).where(eq(user.email, unknown));
    expect(accounts).toEqual([]);
  });

  it("limits link requests per client address", async () => {
    const client = newClientAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await requestLink(`y${i}@example.com`, client)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

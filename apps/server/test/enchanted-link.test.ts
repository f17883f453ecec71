import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user, verification } from "../src/auth/auth-schema";
import { member } from "../src/modules/tenant/organization-schema";
import { type SmtpTestServer, startSmtpTestServer } from "./support/smtp-test-server";
import { identityFlowEngines } from "./support/test-database";
import { startTestServer, type TestServer } from "./support/test-server";

let clientCounter = 0;

interface PendingRequest {
  pendingRef: string;
  number: number;
  expiresAt: string;
}

describe.each(identityFlowEngines)("sign-in with an enchanted link on %s", (engine) => {
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

  function newClientAddress(): string {
    clientCounter += 1;
    return `198.51.100.${clientCounter + (engine === "pglite" ? 0 : 100)}`;
  }

  function post(path: string, body: unknown, clientAddress = newClientAddress()): Promise<Response> {
    return fetch(`${server.url}/api/auth/enchanted-link${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url, "x-forwarded-for": clientAddress },
      body: JSON.stringify(body),
    });
  }

  async function verifiedMember(): Promise<{ email: string; userId: string }> {
    const email = `enchanted-${engine}-${crypto.randomUUID().slice(0, 8)}@palisade.test`;
    const { userId } = await server.addMember({ role: "EDITOR", email });
    return { email, userId };
  }

  /** Asks for the links as the sign-in page does; answers the page's request and the e-mailed links by number. */
  async function requestLinks(email: string) {
    const response = await post("/send", { email });
    expect(response.status).toBe(200);
    const pending = (await response.json()) as PendingRequest;
    const mail = await smtp.waitForMail(email);
    const text = mail.parsed.text ?? "";
    const links = new Map(
      [...text.matchAll(/^Number (\d{2}):\r?\n\S+\/enchanted-link\?token=([A-Za-z0-9_-]+)\r?$/gm)].map(
        ([, number, token]) => [Number(number), token ?? ""] as const,
      ),
    );
    return { pending, mail, links };
  }

  function poll(pendingRef: string): Promise<Response> {
    return post("/pending-session", { pendingRef });
  }

  async function statusOf(pendingRef: string): Promise<string> {
    return ((await (await poll(pendingRef)).json()) as { status: string }).status;
  }

  /** The session cookie a response gives, if any (a cleared cookie gives none). */
  function sessionCookieOf(response: Response): string {
    return response.headers
      .getSetCookie()
      .map((c) => c.split(";")[0] ?? "")
      .filter((c) => c.startsWith("palisade.session_token=") && c !== "palisade.session_token=")
      .join("; ");
  }

  it("signs in the page that asked once the link with its number is opened elsewhere", async () => {
    const { email, userId } = await verifiedMember();
    const { pending, mail, links } = await requestLinks(email);
    expect(pending.number).toBeGreaterThanOrEqual(10);
    expect(pending.number).toBeLessThanOrEqual(99);
    expect(mail.parsed.subject).toBe("Confirm your Palisade sign-in");
    expect([...links.keys()]).toHaveLength(3);
    expect(links.has(pending.number)).toBe(true);
    // The page's secret is not in the mail: a reader cannot take the session elsewhere.
    expect(`${mail.parsed.text}${mail.parsed.html}`).not.toContain(pending.pendingRef);
    expect(await statusOf(pending.pendingRef)).toBe("waiting");

    // The link is opened in another browser: it confirms, and that browser gets no session.
    const opened = await post("/verify", { token: links.get(pending.number) });
    expect(opened.status).toBe(200);
    expect(await opened.json()).toEqual({ status: "confirmed" });
    expect(sessionCookieOf(opened)).toBe("");

    const signedIn = await poll(pending.pendingRef);
    expect(await signedIn.json()).toEqual({ status: "signed-in", user: { email, name: expect.any(String) } });
    const cookie = sessionCookieOf(signedIn);
    expect(cookie).toContain("palisade.session_token=");
    const current = await server.client(TenantService, { kind: "cookie", cookie }).getCurrent({});
    expect(current.user?.id).toBe(userId);
    expect(current.tenant?.id).toBe(server.defaultTenantId);

    // The session is taken once; the link and its siblings work no more.
    const again = await poll(pending.pendingRef);
    expect(await again.json()).toEqual({ status: "expired" });
    expect(sessionCookieOf(again)).toBe("");
    for (const token of links.values()) {
      const replayed = await post("/verify", { token });
      expect(replayed.status).toBe(400);
      expect(((await replayed.json()) as { code: string }).code).toBe("INVALID_TOKEN");
    }
  });

  it("ends the request when another number is chosen: nothing is signed in", async () => {
    const { email } = await verifiedMember();
    const { pending, links } = await requestLinks(email);
    const wrong = [...links.keys()].find((number) => number !== pending.number) ?? 0;
    const opened = await post("/verify", { token: links.get(wrong) });
    expect(opened.status).toBe(400);
    expect(await opened.json()).toMatchObject({
      code: "WRONG_NUMBER",
      message: "That was not the number shown. Nothing was signed in; ask for a new link.",
    });
    const refused = await poll(pending.pendingRef);
    expect(await refused.json()).toEqual({ status: "refused" });
    expect(sessionCookieOf(refused)).toBe("");

    // Guessing again gains nothing: the right link no longer works either.
    const right = await post("/verify", { token: links.get(pending.number) });
    expect(((await right.json()) as { code: string }).code).toBe("INVALID_TOKEN");
    expect(await statusOf(pending.pendingRef)).toBe("expired");
  });

  it("stores the request and links hashed for ten minutes and refuses them once expired", async () => {
    const { email } = await verifiedMember();
    const { pending, links } = await requestLinks(email);
    const { db } = server.palisade.database;
    const rows = await db.select().from(verification).where(like(verification.identifier, "enchanted-link%"));
    expect(rows.filter((row) => row.value.includes(email))).toHaveLength(1);
    for (const secret of [pending.pendingRef, ...links.values()])
      expect(rows.some((row) => row.identifier.includes(secret) || row.value.includes(secret))).toBe(false);
    const validFor = new Date(pending.expiresAt).getTime() - Date.now();
    expect(validFor).toBeGreaterThan(9 * 60_000);
    expect(validFor).toBeLessThanOrEqual(10 * 60_000);

    await db
      .update(verification)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(like(verification.identifier, "enchanted-link%"));
    expect(await statusOf(pending.pendingRef)).toBe("expired");
    const opened = await post("/verify", { token: links.get(pending.number) });
    expect(((await opened.json()) as { code: string }).code).toBe("INVALID_TOKEN");
    expect(await statusOf(pending.pendingRef)).toBe("expired");
  });

  it("answers an unknown address the same way, sends nothing, and no account or tenant is gained", async () => {
    const unknown = `nobody-enchanted-${engine}@palisade.test`;
    const response = await post("/send", { email: unknown });
    expect(response.status).toBe(200);
    const pending = (await response.json()) as PendingRequest;
    expect(Object.keys(pending).sort()).toEqual(["expiresAt", "number", "pendingRef"]);
    expect(await statusOf(pending.pendingRef)).toBe("waiting");
    // A known address asked later gets its mail: the job had time to send anything before it.
    const { email } = await verifiedMember();
    await requestLinks(email);
    expect(smtp.attempts).not.toContain(unknown);
    const { db } = server.palisade.database;
    expect(await db.select().from(user).where(eq(user.email, unknown))).toEqual([]);
    const memberships = await db
      .select({ id: member.id })
      .from(member)
      .innerJoin(user, eq(user.id, member.userId))
      .where(eq(user.email, unknown));
    expect(memberships).toEqual([]);
  });

  it("asks an account with an authenticator app for its code on the page that asked", async () => {
    const { email, userId } = await verifiedMember();
    await server.palisade.database.db.update(user).set({ twoFactorEnabled: true }).where(eq(user.id, userId));
    const { pending, links } = await requestLinks(email);
    expect((await post("/verify", { token: links.get(pending.number) })).status).toBe(200);
    const answered = await poll(pending.pendingRef);
    expect(await answered.json()).toMatchObject({ twoFactorRedirect: true });
    expect(sessionCookieOf(answered)).toBe("");
    expect(answered.headers.getSetCookie().join()).toContain("palisade.two_factor=");
  });

  it("limits requests per client address and per e-mail address", async () => {
    const client = newClientAddress();
    const fromOne: number[] = [];
    for (let i = 0; i < 4; i++)
      fromOne.push((await post("/send", { email: `e${i}@example.com` }, client)).status);
    expect(fromOne).toEqual([200, 200, 200, 429]);

    const toOne: number[] = [];
    for (let i = 0; i < 6; i++)
      toOne.push((await post("/send", { email: "often-enchanted@example.com" })).status);
    expect(toOne).toEqual([200, 200, 200, 200, 200, 429]);
    expect((await post("/send", { email: "not an address" })).status).toBe(400);
  });
});

import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Writable } from "node:stream";
import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import { NotificationService } from "@palisade/api/gen/palisade/notification/v1/notification_pb";
import { TeamService } from "@palisade/api/gen/palisade/team/v1/team_pb";
import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { WaiverApprovalMode } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { WaiverService } from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import { generatePolicyKey } from "@palisade/policy-engine/keys/policy-key";
import { eq, type SQL, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "../src/auth/auth-schema";
import { bundles, deployments } from "../src/modules/deployment/deployment-schema";
import { type ChatReceiver, startChatReceiver } from "./support/chat-receiver";
import { waitFor } from "./support/poll";
import { type SmtpTestServer, startSmtpTestServer } from "./support/smtp-test-server";
import { engines } from "./support/test-database";
import { ADMIN_PASSWORD, type Credentials, startTestServer, type TestServer } from "./support/test-server";

/** A phone message bridge on loopback that keeps every body it is sent. */
async function startMessageReceiver() {
  const messages: { channel: string; text: string; code?: string; link?: string }[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      messages.push(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/messages`,
    messages,
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Every file under a folder, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const CODE_PATTERN = /^(\d{6})$/m;

/**
 * After a run that sends every kind of mail and phone message Palisade sends, the secrets those
 * messages carry (known from what the SMTP server and the message bridge received) appear nowhere
 * an operator's copy would hold them: not in any table (the job queue included), not in the data
 * folder, not in the log. Passwords neither.
 */
describe.each(engines)("credentials at rest on %s", (engine) => {
  let smtp: SmtpTestServer;
  let phone: Awaited<ReturnType<typeof startMessageReceiver>>;
  let chat: ChatReceiver;
  let server: TestServer;
  const log: string[] = [];
  let clientCounter = 0;

  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    phone = await startMessageReceiver();
    chat = await startChatReceiver("xoxb-unused");
    server = await startTestServer(
      engine,
      {
        SMTP_URL: smtp.url,
        MESSAGE_WEBHOOK_URL: phone.url,
        MESSAGE_WEBHOOK_SECRET: "a-webhook-secret-of-some-length",
        ALLOW_SIGN_UP: "true",
        TRUST_PROXY: "true",
        LOG_LEVEL: "debug",
      },
      new Writable({
        write(chunk, _encoding, done) {
          log.push(String(chunk));
          done();
        },
      }),
    );
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.stop();
    await phone?.stop();
    await chat?.stop();
  });

  function post(path: string, body: unknown): Promise<Response> {
    clientCounter += 1;
    return fetch(`${server.url}/api/auth${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        origin: server.url,
        "x-forwarded-for": `203.0.113.${clientCounter}`,
      },
      body: JSON.stringify(body),
    });
  }

  async function mailTo(email: string): Promise<string> {
    const mail = await waitFor(`the mail to ${email}`, async () =>
      smtp.received.find((m) => m.recipients.includes(email)),
    );
    return `${mail.parsed.text ?? ""}\n${mail.parsed.html || ""}`;
  }

  function linkToken(text: string, path: RegExp): string {
    const token = text.match(path)?.[1];
    if (!token) throw new Error(`no ${path} link in ${text.slice(0, 200)}`);
    return decodeURIComponent(token);
  }

  async function seedManualBundle(tenantId: string) {
    const db = server.palisade.database.db;
    const key = generatePolicyKey((n) => randomBytes(n));
    const [bundle] = await db
      .insert(bundles)
      .values({
        tenantId,
        key,
        name: `Keep S3 private ${key}`,
        policySlug: "aws-s3-deny-public-access-change",
        provider: "AWS",
        mode: "PREVENT",
        status: "DEPLOYED",
        scopes: [{ id: "111122223333" }],
        waiverApprovalMode: "MANUAL",
        createdBy: "seed",
      })
      .returning();
    if (!bundle) throw new Error("no bundle");
    await db.insert(deployments).values({
      tenantId,
      bundleId: bundle.id,
      key,
      scope: { id: "111122223333" },
      scopeExternalId: "111122223333",
      mode: "PREVENT",
      status: "DEPLOYED",
      policySlug: bundle.policySlug,
      name: bundle.name,
      createdBy: "seed",
    });
    return key;
  }

  it("keeps no mailed link or code, no phone code and no password in the tables, the data folder or the log", async () => {
    const secrets: Record<string, string> = {};
    const codes: Record<string, string> = {};
    const passwords: string[] = [ADMIN_PASSWORD];

    const admin = await server.addMember({ role: "ADMINISTRATOR", email: "ada@palisade.test" });
    const approver = await server.addMember({ role: "MODERATOR", email: "mo@palisade.test" });
    const requester = await server.addMember({ role: "MODERATOR", email: "ed@palisade.test" });
    passwords.push(admin.password, approver.password, requester.password);
    const as: Credentials = admin.credentials;

    // Invitation.
    await server.client(TeamService, as).inviteMember({ email: "ivy@example.com", role: Role.VIEWER });
    secrets.invitation = linkToken(await mailTo("ivy@example.com"), /\/invite\/([A-Za-z0-9_%-]+)/);

    // Confirmation of a new account.
    const newcomerPassword = `newcomer-${randomBytes(6).toString("hex")}`;
    passwords.push(newcomerPassword);
    expect(
      (await post("/sign-up/email", { email: "nia@example.com", password: newcomerPassword, name: "Nia" }))
        .status,
    ).toBe(200);
    secrets.confirmation = linkToken(await mailTo("nia@example.com"), /verify-email\?token=([^&\s"]+)/);

    // Password reset, sign-in link, e-mailed code, enchanted link: each to its own account.
    expect(
      (await post("/request-password-reset", { email: admin.email, redirectTo: "/reset-password" })).ok,
    ).toBe(true);
    secrets.reset = linkToken(await mailTo(admin.email), /reset-password\?token=([^&\s"]+)/);
    expect((await post("/sign-in/magic-link", { email: approver.email })).ok).toBe(true);
    secrets.signInLink = linkToken(await mailTo(approver.email), /sign-in-link\?token=([^&\s"]+)/);
    expect(
      (await post("/email-otp/send-verification-otp", { email: requester.email, type: "sign-in" })).ok,
    ).toBe(true);
    codes.emailCode = (await mailTo(requester.email)).match(CODE_PATTERN)?.[1] ?? "";
    const enchanted = await server.addMember({ role: "VIEWER", email: "eli@palisade.test" });
    passwords.push(enchanted.password);
    const asked = await post("/enchanted-link/send", { email: enchanted.email });
    secrets.pendingRef = ((await asked.json()) as { pendingRef: string }).pendingRef;
    const enchantedMail = await mailTo(enchanted.email);
    [...enchantedMail.matchAll(/enchanted-link\?token=([^&\s"]+)/g)].forEach((match, index) => {
      secrets[`enchanted${index}`] = decodeURIComponent(match[1] ?? "");
    });

    // The waiver requester's code, for an address of a requester domain.
    const tenantId = server.defaultTenantId;
    await server.client(TenantService, as).updateSettings({
      settings: {
        maxWaiverDurationHours: 72,
        defaultWaiverApprovalMode: WaiverApprovalMode.AUTO,
        waiverRequesterDomains: ["requesters.example"],
      },
    });
    const key = await seedManualBundle(tenantId);
    await server.client(TeamService).sendRequesterCode({ email: "rex@requesters.example", policyKey: key });
    codes.requesterCode = (await mailTo("rex@requesters.example")).match(CODE_PATTERN)?.[1] ?? "";

    // A phone code by SMS and a sign-in link by WhatsApp to a confirmed number.
    const texter = await server.addMember({ role: "VIEWER", email: "tess@palisade.test" });
    passwords.push(texter.password);
    await server.palisade.database.db
      .update(user)
      .set({ phoneNumber: "+15550001234", phoneNumberVerified: true })
      .where(eq(user.id, texter.userId));
    expect((await post("/phone-number/send-otp", { phoneNumber: "+15550001234" })).ok).toBe(true);
    const sms = await waitFor("the SMS", async () => phone.messages.find((m) => m.channel === "sms"));
    codes.phoneCode = sms.code ?? "";
    expect((await post("/whatsapp-link/send", { email: texter.email })).ok).toBe(true);
    const whatsapp = await waitFor("the WhatsApp link", async () =>
      phone.messages.find((m) => m.channel === "whatsapp"),
    );
    secrets.whatsappLink = linkToken(whatsapp.text, /sign-in-link\?token=([^&\s"]+)/);

    // Waiver notifications by e-mail and Teams (whose card carries Approve and Reject links).
    await server.client(NotificationService, as).updateSettings({
      events: { waiverPending: true, waiverDecided: true, waiverExpiring: true, deploymentFailed: true },
      emailEnabled: true,
      teamsEnabled: true,
      teamsWebhookUrl: `${chat.url}/teams-webhook/secretpart`,
    });
    await server
      .client(WaiverService, requester.credentials)
      .create({ key, duration: 3_600n, comment: "rotate the bucket policy" });
    await waitFor("the waiver notice", async () =>
      smtp.received.find(
        (m) => m.recipients.includes(approver.email) && /waiver/i.test(m.parsed.subject ?? ""),
      ),
    );
    const card = await waitFor("the Teams card", async () =>
      chat.received.find((r) => r.path.startsWith("/teams-webhook/")),
    );
    [...JSON.stringify(card.body).matchAll(/decide\?token=([^"&\\]+)/g)].forEach((match, index) => {
      secrets[`teams${index}`] = decodeURIComponent(match[1] ?? "");
    });

    for (const [name, value] of Object.entries({ ...secrets, ...codes }))
      expect(value, `${name} was received`).toMatch(/^\S{6,}$/);
    expect(Object.keys(secrets).filter((name) => name.startsWith("enchanted")).length).toBeGreaterThan(1);
    expect(Object.keys(secrets).filter((name) => name.startsWith("teams"))).toHaveLength(2);

    // Delivered mail and message jobs are deleted, not kept as completed.
    const db = server.palisade.database.db;
    const query = async <T>(statement: SQL) => ((await db.execute(statement)) as { rows: T[] }).rows;
    await waitFor("the mail and message jobs to be deleted", async () => {
      const [left] = await query<{ n: number }>(
        sql`select count(*)::int as n from pgboss.job where name in ('mail.send', 'message.send')`,
      );
      return left?.n === 0;
    });

    // A dump of every table of every schema.
    const tables = await query<{ table_schema: string; table_name: string }>(
      sql`select table_schema, table_name from information_schema.tables
          where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`,
    );
    expect(tables.map((t) => `${t.table_schema}.${t.table_name}`)).toEqual(
      expect.arrayContaining(["pgboss.job", "public.verification", "public.invitation"]),
    );
    let dump = "";
    for (const table of tables) {
      const rows = await query(sql.raw(`select * from "${table.table_schema}"."${table.table_name}"`));
      dump += `${table.table_schema}.${table.table_name}\n${JSON.stringify(rows)}\n`;
    }
    if (engine === "pglite") await db.execute(sql`checkpoint`);
    const files = filesUnder(server.dataDir).map((path) => ({ path, bytes: readFileSync(path) }));
    const logText = log.join("");
    expect(logText).toContain("mail sent");

    const places = [
      { name: "the database dump", has: (text: string) => dump.includes(text) },
      { name: "the log", has: (text: string) => logText.includes(text) },
      ...files.map(({ path, bytes }) => ({ name: path, has: (text: string) => bytes.includes(text) })),
    ];
    const found: string[] = [];
    for (const place of places) {
      for (const [name, value] of Object.entries(secrets))
        if (place.has(value)) found.push(`${name} in ${place.name}`);
      for (const password of passwords) if (place.has(password)) found.push(`a password in ${place.name}`);
      // A six-digit code is looked for as it would be kept: alone in a field, or as a code row's value.
      for (const [name, code] of Object.entries(codes)) {
        if ([`"${code}"`, `${code}:`, `${code} is your`, `\n${code}\n`].some((form) => place.has(form)))
          found.push(`${name} in ${place.name}`);
      }
    }
    expect(found).toEqual([]);
  }, 120_000);
});

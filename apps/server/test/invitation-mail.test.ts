import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import { DeliveryStatus, type Invitation, TeamService } from "@palisade/api/gen/palisade/team/v1/team_pb";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatExpiry } from "../src/mail/mail-templates";
import { invitationTokenIn } from "./support/invitation-link";
import { waitFor } from "./support/poll";
import { type SmtpTestServer, startSmtpTestServer } from "./support/smtp-test-server";
import { deliveryEngines } from "./support/test-database";
import { type Credentials, startTestServer, type TestServer } from "./support/test-server";

const PUBLIC_URL = "https://palisade.example.com";
// Two retries, one second apart at first: the retry path runs in a few seconds.
const FAST_RETRIES = { MAIL_RETRY_LIMIT: "2", MAIL_RETRY_DELAY_SECONDS: "1" };

describe.each(deliveryEngines)("invitation e-mail over SMTP on %s", (engine) => {
  let smtp: SmtpTestServer;
  let server: TestServer;
  let admin: Credentials;

  beforeAll(async () => {
    smtp = await startSmtpTestServer({
      refuse: (address, attempt) => {
        if (address === "nobody@example.com") return { code: 550, message: "5.1.1 No such user here" };
        if (address === "busy@example.com") return { code: 451, message: "4.3.0 Mailbox busy, try later" };
        if (address === "flaky@example.com" && attempt === 1) return { code: 421, message: "4.4.5 Too busy" };
        return undefined;
      },
    });
    server = await startTestServer(engine, { SMTP_URL: smtp.url, PUBLIC_URL, ...FAST_RETRIES });
    const tenantId = await server.createTenant("R&D <Security>");
    admin = (await server.addMember({ role: "ADMINISTRATOR", tenantId, name: "Alice Admin" })).credentials;
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.stop();
  });

  async function invitationOf(email: string, until: (i: Invitation | undefined) => boolean) {
    const team = server.client(TeamService, admin);
    return waitFor(
      `the invitation to ${email}`,
      async () => (await team.listInvitations({})).invitations.find((i) => i.email === email),
      until,
      20_000,
    );
  }

  it("InviteMember sends who invited, the tenant, the role, the link and the expiry as text and HTML", async () => {
    const { invitation } = await server
      .client(TeamService, admin)
      .inviteMember({ email: "Bob@Example.com", role: Role.EDITOR });
    if (!invitation?.expiresAt) throw new Error("no invitation returned");
    expect(invitation.deliveryStatus).toBe(DeliveryStatus.PENDING);

    const mail = await smtp.waitForMail("bob@example.com");
    const token = invitationTokenIn(mail.parsed.text ?? "");
    // 256 random bits, base64url; the invitation id is not the secret.
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(token).not.toBe(invitation.id);
    const link = `${PUBLIC_URL}/invite/${token}`;
    const expiry = formatExpiry(timestampDate(invitation.expiresAt));
    expect(expiry).toMatch(/ UTC$/);
    expect(mail.parsed.subject).toBe("Alice Admin invited you to R&D <Security> on Palisade");
    expect(mail.parsed.from?.text).toBe('"Palisade" <palisade@localhost>');
    const text = mail.parsed.text ?? "";
    for (const expected of ["Palisade", "Alice Admin", "R&D <Security>", "EDITOR", link, expiry]) {
      expect(text).toContain(expected);
    }
    const html = mail.parsed.html || "";
    for (const expected of [
      "Palisade",
      "Alice Admin",
      "R&amp;D &lt;Security&gt;",
      "EDITOR",
      `href="${link}"`,
      expiry,
    ]) {
      expect(html).toContain(expected);
    }
    expect(html).not.toContain("<Security>");

    const listed = await invitationOf("bob@example.com", (i) => i?.deliveryStatus === DeliveryStatus.SENT);
    expect(listed).toMatchObject({ deliveryStatus: DeliveryStatus.SENT, deliveryError: "" });
  });

  it("shows delivery failed with the SMTP answer when the server refuses the recipient", async () => {
    await server.client(TeamService, admin).inviteMember({ email: "nobody@example.com", role: Role.VIEWER });
    const listed = await invitationOf(
      "nobody@example.com",
      (i) => i?.deliveryStatus === DeliveryStatus.FAILED,
    );
    expect(listed?.deliveryStatus).toBe(DeliveryStatus.FAILED);
    expect(listed?.deliveryError).toMatch(/550 5\.1\.1 No such user here/);
    // A permanent refusal is not retried.
    expect(smtp.attempts.filter((a) => a === "nobody@example.com")).toHaveLength(1);
  });

  it("shows delivery failed after the last retry when the server keeps deferring", async () => {
    await server.client(TeamService, admin).inviteMember({ email: "busy@example.com", role: Role.VIEWER });
    const listed = await invitationOf("busy@example.com", (i) => i?.deliveryStatus === DeliveryStatus.FAILED);
    expect(listed?.deliveryStatus).toBe(DeliveryStatus.FAILED);
    expect(listed?.deliveryError).toMatch(/451 4\.3\.0 Mailbox busy, try later/);
    expect(smtp.attempts.filter((a) => a === "busy@example.com")).toHaveLength(3);
  });

  it("retries a deferred message until the server takes it", async () => {
    await server.client(TeamService, admin).inviteMember({ email: "flaky@example.com", role: Role.VIEWER });
    await smtp.waitForMail("flaky@example.com");
    const listed = await invitationOf("flaky@example.com", (i) => i?.deliveryStatus === DeliveryStatus.SENT);
    expect(listed).toMatchObject({ deliveryStatus: DeliveryStatus.SENT, deliveryError: "" });
    expect(smtp.attempts.filter((a) => a === "flaky@example.com")).toHaveLength(2);
  });
});

describe.each(deliveryEngines)("invitation e-mail without SMTP_URL on %s", (engine) => {
  let server: TestServer;
  let admin: Credentials;

  beforeAll(async () => {
    server = await startTestServer(engine, { PUBLIC_URL });
    admin = (await server.addMember({ role: "ADMINISTRATOR", name: "Alice Admin" })).credentials;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("writes the invitation as an .eml file in DATA_DIR/outbox", async () => {
    const team = server.client(TeamService, admin);
    const { invitation } = await team.inviteMember({ email: "carol@example.com", role: Role.VIEWER });
    const outbox = join(server.dataDir, "outbox");
    const files = await waitFor(
      "a message in the outbox",
      () => readdir(outbox).catch(() => [] as string[]),
      (names) => names.some((n) => n.endsWith(".eml")),
      20_000,
    );
    const emls = files.filter((n) => n.endsWith(".eml"));
    expect(emls).toHaveLength(1);
    const parsed = await simpleParser(await readFile(join(outbox, emls[0] ?? "")));
    const link = `${PUBLIC_URL}/invite/${invitationTokenIn(parsed.text ?? "")}`;
    expect(parsed.subject).toBe("Alice Admin invited you to Default on Palisade");
    expect(parsed.text).toContain(link);
    expect(parsed.html).toContain(`href="${link}"`);
    const listed = await waitFor(
      "the invitation to be listed SENT",
      async () => (await team.listInvitations({})).invitations.find((i) => i.id === invitation?.id),
      (i) => i?.deliveryStatus === DeliveryStatus.SENT,
      20_000,
    );
    expect(listed?.deliveryStatus).toBe(DeliveryStatus.SENT);
  });
});

import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SmtpTestServer, startSmtpTestServer } from "../../test/support/smtp-test-server";
import { createLogger } from "../logger";
import { createMailSender, isPermanentMailError, mailErrorText } from "./mail-sender";
import type { MailMessage } from "./mail-templates";

function capturedLogger() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: createLogger("debug", destination), lines };
}

const message = (to: string): MailMessage => ({
  to,
  subject: "Test message",
  text: "Open https://palisade.test/invite/1",
  html: '<p><a href="https://palisade.test/invite/1">Open</a></p>',
});

describe("mail sender over SMTP", () => {
  let smtp: SmtpTestServer;
  beforeAll(async () => {
    smtp = await startSmtpTestServer({
      credentials: { user: "mailer", password: "s3cret-Pa55" },
      refuse: (address) =>
        address.startsWith("nobody@") ? { code: 550, message: "5.1.1 No such user here" } : undefined,
    });
  });
  afterAll(() => smtp?.stop());

  const signedIn = () => smtp.url.replace("smtp://", "smtp://mailer:s3cret-Pa55@");
  const settings = (smtpUrl: string) => ({
    smtpUrl,
    from: "Palisade <palisade@example.com>",
    outboxDir: "/nonexistent",
  });

  it("signs in, sends both parts, and never logs the credentials", async () => {
    const { logger, lines } = capturedLogger();
    const sender = createMailSender(settings(signedIn()), logger);
    const sent = await sender.send(message("bob@example.com"), { key: "job-1", link: "https://x" });
    sender.close();
    expect(sent.via).toBe("smtp");
    const mail = await smtp.waitForMail("bob@example.com");
    expect(mail.user).toBe("mailer");
    expect(mail.parsed.from?.text).toBe('"Palisade" <palisade@example.com>');
    expect(mail.parsed.messageId).toBe("<job-1@example.com>");
    expect(mail.parsed.text?.trim()).toBe("Open https://palisade.test/invite/1");
    expect(mail.parsed.html).toContain('href="https://palisade.test/invite/1"');
    expect(lines.join("")).toContain("mail sent");
    expect(lines.join("")).not.toContain("s3cret");
  });

  it("reports a refused recipient as permanent, with the server's answer", async () => {
    const sender = createMailSender(settings(signedIn()), capturedLogger().logger);
    const error = await sender.send(message("nobody@example.com"), { key: "job-2", link: "x" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    sender.close();
    expect(isPermanentMailError(error)).toBe(true);
    expect(mailErrorText(error)).toMatch(/550 5\.1\.1 No such user here/);
  });

  it("reports an unreachable server as worth retrying", async () => {
    const sender = createMailSender(settings("smtp://127.0.0.1:1"), capturedLogger().logger);
    const error = await sender.send(message("bob@example.com"), { key: "job-3", link: "x" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    sender.close();
    expect(error).toBeInstanceOf(Error);
    expect(isPermanentMailError(error)).toBe(false);
  });
});

describe("mail sender without SMTP", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "palisade-outbox-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("writes one .eml file per message key and logs the file and the link", async () => {
    const { logger, lines } = capturedLogger();
    const outboxDir = join(dir, "outbox");
    const sender = createMailSender(
      { smtpUrl: undefined, from: "Palisade <palisade@localhost>", outboxDir },
      logger,
    );
    const link = "https://palisade.test/invite/1";
    const first = await sender.send(message("bob@example.com"), { key: "job-9", link });
    // A retried job writes the same file again rather than a second one.
    await sender.send(message("bob@example.com"), { key: "job-9", link });
    sender.close();
    expect(first).toEqual({ via: "outbox", file: join(outboxDir, "job-9.eml") });
    expect(await readdir(outboxDir)).toEqual(["job-9.eml"]);
    const parsed = await simpleParser(await readFile(join(outboxDir, "job-9.eml")));
    expect(parsed.to && "text" in parsed.to ? parsed.to.text : "").toBe("bob@example.com");
    expect(parsed.text).toContain(link);
    expect(parsed.html).toContain(link);
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toContainEqual(
      expect.objectContaining({
        msg: "mail written to the outbox",
        file: first.via === "outbox" ? first.file : "",
        link,
      }),
    );
  });
});

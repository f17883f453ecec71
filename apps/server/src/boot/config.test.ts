import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readConfig } from "./config";

describe("web app location", () => {
  it("serves the web app's build beside the server in the repository unless WEB_DIST says otherwise", () => {
    const { webDist } = readConfig({});
    expect(webDist.endsWith(join("apps", "web", "dist"))).toBe(true);
    expect(existsSync(join(webDist, "..", "package.json"))).toBe(true);
    expect(readConfig({ WEB_DIST: "/srv/palisade-web" }).webDist).toBe("/srv/palisade-web");
  });
});

describe("mail settings", () => {
  it("writes to the outbox in DATA_DIR by default, from Palisade, with minutes of retries", () => {
    const { mail } = readConfig({ DATA_DIR: "/var/lib/palisade" });
    expect(mail).toEqual({
      smtpUrl: undefined,
      from: "Palisade <palisade@localhost>",
      outboxDir: "/var/lib/palisade/outbox",
      retry: { limit: 6, delaySeconds: 30 },
    });
  });

  it.each([
    "smtp://user:pass@mail.example.com:587",
    "smtps://user:pass@mail.example.com",
    "smtp://127.0.0.1:2525",
  ])("takes %s", (url) => {
    expect(readConfig({ SMTP_URL: url }).mail.smtpUrl).toBe(url);
  });

  it.each([
    ["http://user:hunter2secret@mail.example.com", /SMTP_URL must start with smtp:\/\//],
    ["user hunter2secret@mail.example.com", /SMTP_URL must be a URL/],
  ])("refuses %s without repeating it", (url, message) => {
    expect(() => readConfig({ SMTP_URL: url })).toThrow(message);
    try {
      readConfig({ SMTP_URL: url });
    } catch (error) {
      expect((error as Error).message).not.toContain("hunter2secret");
    }
  });

  it.each([
    ["Security <security@example.com>", true],
    ["alerts@example.com", true],
    ["Palisade", false],
    ["a@b\nBcc: x@y", false],
  ])("MAIL_FROM %j accepted: %s", (from, ok) => {
    const read = () => readConfig({ MAIL_FROM: from });
    if (ok) expect(read().mail.from).toBe(from);
    else expect(read).toThrow(/MAIL_FROM/);
  });

  it("reads retry settings, zero retries included", () => {
    expect(readConfig({ MAIL_RETRY_LIMIT: "0", MAIL_RETRY_DELAY_SECONDS: "5" }).mail.retry).toEqual({
      limit: 0,
      delaySeconds: 5,
    });
    expect(() => readConfig({ MAIL_RETRY_LIMIT: "-1" })).toThrow(/MAIL_RETRY_LIMIT must be a whole number/);
  });
});

describe("invitation links", () => {
  it("stay valid 7 days unless INVITATION_TTL_HOURS says otherwise", () => {
    expect(readConfig({}).invitationTtlHours).toBe(168);
    expect(readConfig({ INVITATION_TTL_HOURS: "48" }).invitationTtlHours).toBe(48);
    expect(() => readConfig({ INVITATION_TTL_HOURS: "0" })).toThrow(
      /INVITATION_TTL_HOURS must be a positive number/,
    );
  });
});

describe("open sign-up", () => {
  it("is off unless ALLOW_SIGN_UP is true", () => {
    expect(readConfig({}).allowSignUp).toBe(false);
    expect(readConfig({ ALLOW_SIGN_UP: "true" }).allowSignUp).toBe(true);
    expect(readConfig({ ALLOW_SIGN_UP: "false" }).allowSignUp).toBe(false);
    expect(() => readConfig({ ALLOW_SIGN_UP: "yes" })).toThrow(/ALLOW_SIGN_UP must be true or false/);
  });
});

describe("replica settings", () => {
  it.each([
    [undefined, false],
    ["true", true],
    ["10.0.0.0/8, 192.168.1.5", ["10.0.0.0/8", "192.168.1.5"]],
  ])("TRUST_PROXY=%s trusts %j", (raw, expected) => {
    expect(readConfig(raw === undefined ? {} : { TRUST_PROXY: raw }).trustProxy).toEqual(expected);
  });

  it("refuses a TRUST_PROXY that is no address, and a SANDBOX_URL that is no http URL", () => {
    expect(() => readConfig({ TRUST_PROXY: "proxy.example.com" })).toThrow(/TRUST_PROXY must be/);
    expect(() => readConfig({ SANDBOX_URL: "sandbox:4510" })).toThrow(/SANDBOX_URL must be/);
    expect(readConfig({ SANDBOX_URL: "http://sandbox:4510/" }).sandbox.url).toBe("http://sandbox:4510");
  });
});

describe("phone message settings", () => {
  it("writes messages to the outbox unless a webhook and its secret are set", () => {
    const outbox = readConfig({ DATA_DIR: "/tmp/palisade-config" }).messaging;
    expect(outbox).toEqual({
      webhookUrl: undefined,
      webhookSecret: undefined,
      outboxDir: "/tmp/palisade-config/outbox",
    });
    const webhook = readConfig({
      MESSAGE_WEBHOOK_URL: "https://bridge.example.com/palisade",
      MESSAGE_WEBHOOK_SECRET: "sixteen-chars-or-more",
    }).messaging;
    expect(webhook.webhookUrl).toBe("https://bridge.example.com/palisade");
    expect(webhook.webhookSecret).toBe("sixteen-chars-or-more");
  });

  it("refuses a webhook without a long enough secret, and a URL that is not http(s)", () => {
    expect(() => readConfig({ MESSAGE_WEBHOOK_URL: "https://bridge.example.com" })).toThrow(
      /MESSAGE_WEBHOOK_SECRET must be set/,
    );
    expect(() =>
      readConfig({ MESSAGE_WEBHOOK_URL: "https://bridge.example.com", MESSAGE_WEBHOOK_SECRET: "short" }),
    ).toThrow(/at least 16 characters/);
    expect(() =>
      readConfig({
        MESSAGE_WEBHOOK_URL: "ftp://bridge.example.com",
        MESSAGE_WEBHOOK_SECRET: "sixteen-chars-or-more",
      }),
    ).toThrow(/MESSAGE_WEBHOOK_URL must be/);
  });
});

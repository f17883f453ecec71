import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, redactUrl } from "./logger";

describe("redactUrl", () => {
  it.each([
    ["/healthz", "/healthz"],
    ["/req?k=ABCDEFG", "/req?k=ABCDEFG"],
    [
      "/api/auth/verify-email?token=abc.def&callbackURL=%2F",
      "/api/auth/verify-email?token=%5Bredacted%5D&callbackURL=%2F",
    ],
    [
      "/api/auth/callback/github?code=xyz&state=s1",
      "/api/auth/callback/github?code=%5Bredacted%5D&state=%5Bredacted%5D",
    ],
  ])("%s", (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});

describe("createLogger", () => {
  it("never writes credentials, whether in fields or in request URLs", () => {
    const lines: string[] = [];
    const logger = createLogger(
      "info",
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    logger.info({ body: { password: "hunter2", token: "t0k3n", clientSecret: "s3cr3t" } }, "sign-in");
    logger.info({ req: { method: "GET", url: "/api/auth/reset-password?token=r3s3t" } }, "request");
    const output = lines.join("");
    expect(output).not.toMatch(/hunter2|t0k3n|s3cr3t|r3s3t/);
    expect(output).toContain("[redacted]");
  });
});

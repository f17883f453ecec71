import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "../logger";
import { authLog, createCredentialFailureLog } from "./credential-failure-log";

function capture(level = "info") {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, logger: createLogger(level, stream) };
}

describe("failed credential checks in the log", () => {
  it("logs at info, one line per address per interval, then says how many it stood for", () => {
    const { lines, logger } = capture();
    let time = 0;
    const log = createCredentialFailureLog(logger, { intervalMs: 60_000, now: () => time });
    for (let i = 0; i < 1000; i += 1) log.record("203.0.113.7", "The API key is not valid or has expired.");
    log.record("198.51.100.2", "The API key is not valid or has expired.");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      level: 30,
      remoteAddress: "203.0.113.7",
      msg: "credential check failed",
    });
    time = 60_000;
    log.record("203.0.113.7", "The API key is not valid or has expired.");
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatchObject({ level: 30, remoteAddress: "203.0.113.7", alsoSince: 999 });
  });

  it("remembers a bounded number of addresses", () => {
    const { lines, logger } = capture();
    const log = createCredentialFailureLog(logger, { maxAddresses: 2, now: () => 0 });
    for (const address of ["a", "b", "c", "a"]) log.record(address, "bad");
    // "a" was forgotten when "c" came, so it is logged again.
    expect(lines.map((line) => line.remoteAddress)).toEqual(["a", "b", "c", "a"]);
  });

  it("Better Auth's own lines for garbage credentials go to debug; its other warnings stay", () => {
    const { lines, logger } = capture();
    const log = authLog(logger);
    log.log("error", "Failed to validate API key:");
    log.log("warn", "Invalid password");
    log.log("warn", "Password is too short");
    expect(lines).toEqual([expect.objectContaining({ level: 40, msg: "Password is too short" })]);
  });
});

import { describe, expect, it } from "vitest";
import { createLogger, type LogLevel } from "./logger";

describe("createLogger", () => {
  it("defaults to level warn and namespace app", () => {
    const lines: string[] = [];
    const log = createLogger(undefined, undefined, (_level, line) => lines.push(line));
    log.info("hidden");
    log.warn("shown");
    log.error("also shown");
    expect(log.namespace).toBe("app");
    expect(lines).toEqual(["[app] shown", "[app] also shown"]);
  });

  it.each<[LogLevel, string[]]>([
    ["debug", ["debug", "info", "warn", "error"]],
    ["info", ["info", "warn", "error"]],
    ["error", ["error"]],
    ["silent", []],
  ])("at level %s emits %j", (level, expected) => {
    const seen: string[] = [];
    const log = createLogger("test", level, (at) => seen.push(at));
    log.debug("x");
    log.info("x");
    log.warn("x");
    log.error("x");
    expect(seen).toEqual(expected);
  });
});

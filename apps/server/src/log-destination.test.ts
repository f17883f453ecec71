import { describe, expect, it } from "vitest";
import { logDestination } from "./log-destination";

describe("where the log goes", () => {
  it("is pretty on a terminal", () => {
    expect(logDestination({ isTTY: true }, {})).toBeDefined();
  });
  it.each([
    ["a pipe or file", { isTTY: false }, {}],
    ["CI, even on a terminal", { isTTY: true }, { CI: "true" }],
  ])("is JSON (pino's default) on %s", (_name, stdout, env) => {
    expect(logDestination(stdout, env)).toBeUndefined();
  });
});

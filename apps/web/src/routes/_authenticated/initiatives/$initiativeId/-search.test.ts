import { describe, expect, it } from "vitest";
import { initiativeDetailSearchSchema } from "./-search";

describe("initiative detail search", () => {
  it.each([
    [{}, { tab: "policies" }],
    [{ tab: "covered" }, { tab: "covered" }],
    [
      { tab: "description", clause: "1.4", policy: "deny-root" },
      { tab: "description", clause: "1.4", policy: "deny-root" },
    ],
    [{ tab: "unknown" }, { tab: "policies" }],
    [{ clause: "" }, { tab: "policies" }],
    [{ policy: "" }, { tab: "policies" }],
    [{ clause: 3 }, { tab: "policies", clause: "3" }],
  ])("%j -> %j", (input, expected) => {
    expect(initiativeDetailSearchSchema.parse(input)).toEqual(expected);
  });
});

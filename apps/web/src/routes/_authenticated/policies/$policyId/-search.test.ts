import { describe, expect, it } from "vitest";
import { policyDetailSearchSchema } from "./-search";

describe("policy detail search", () => {
  it.each([
    [{}, {}],
    [
      { tab: "waivers", eventType: 2 },
      { tab: "waivers", eventType: 2 },
    ],
    [{ tab: "overview" }, { tab: "overview" }],
    [{ tab: "secrets" }, {}],
    [{ eventType: "drift" }, {}],
    [{ eventType: -1 }, {}],
  ])("%j -> %j", (input, expected) => {
    expect(policyDetailSearchSchema.parse(input)).toEqual(expected);
  });
});

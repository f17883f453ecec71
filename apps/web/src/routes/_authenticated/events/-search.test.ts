import { describe, expect, it } from "vitest";
import { eventsSearchSchema } from "./-search";

describe("events search", () => {
  it.each([
    [{}, {}],
    [{ type: "alert" }, { type: "alert" }],
    [{ type: ["prevented", "historical-drift"] }, { type: ["prevented", "historical-drift"] }],
    [{ type: "exploded" }, {}],
    [{ type: ["alert", "nope"] }, {}],
    [{ resourceType: "AWS::S3::Bucket" }, { resourceType: ["AWS::S3::Bucket"] }],
    [
      { policyName: ["a", "b"], scope: "o-1", user: "ada" },
      { policyName: ["a", "b"], scope: ["o-1"], user: ["ada"] },
    ],
    [
      { resourceName: 123, policyId: 9 },
      { resourceName: "123", policyId: "9" },
    ],
    [{ scope: [123456789012, "ou-1"] }, { scope: ["123456789012", "ou-1"] }],
    [{ scope: [{}] }, {}],
    [
      { from: "2026-11-01", to: "2026-11-23", provider: "azure", view: "events" },
      { from: "2026-11-01", to: "2026-11-23", provider: "azure", view: "events" },
    ],
    [{ from: "yesterday", provider: "gcp", view: "grid" }, {}],
  ])("%j -> %j", (input, expected) => {
    expect(eventsSearchSchema.parse(input)).toEqual(expected);
  });
});

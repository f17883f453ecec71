import { describe, expect, it } from "vitest";
import { eventsSearchSchema, selectedEventTypes } from "./-search";

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
    [{ scope: [1, 2] }, {}],
  ])("%j -> %j", (input, expected) => {
    expect(eventsSearchSchema.parse(input)).toEqual(expected);
  });

  it.each([
    [undefined, []],
    ["waived", ["waived"]],
    [
      ["dismissed", "resolved"],
      ["dismissed", "resolved"],
    ],
  ] as const)("selected types of %j", (type, expected) => {
    expect(selectedEventTypes(type as never)).toEqual(expected);
  });
});

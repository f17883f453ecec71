import { describe, expect, it } from "vitest";
import { archivedPolicySearchSchema } from "./-search";

describe("archived policy search", () => {
  it.each([
    [
      { policyId: "p-1", eventType: "drift" },
      { policyId: "p-1", eventType: "drift" },
    ],
    [
      { policyId: 42, eventType: "prevention" },
      { policyId: "42", eventType: "prevention" },
    ],
  ])("accepts %j", (input, expected) => {
    expect(archivedPolicySearchSchema.parse(input)).toEqual(expected);
  });

  it.each([[{}], [{ policyId: "p-1" }], [{ eventType: "drift" }], [{ policyId: "p-1", eventType: "alert" }]])(
    "requires both policyId and a known eventType: %j",
    (input) => {
      expect(archivedPolicySearchSchema.safeParse(input).success).toBe(false);
    },
  );
});

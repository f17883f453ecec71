import { describe, expect, it } from "vitest";
import { policyCreateSearchSchema } from "./-search";

describe("policy create search", () => {
  it.each([
    [{}, {}],
    [
      {
        recommendationId: "r1",
        recommendationTitle: "Block public buckets",
        initiativeSlug: "cis-aws",
        initiativeTitle: "CIS AWS",
        provider: "AWS",
        defaultSelectedPolicies: ["a", "b"],
        policyKey: "ABCDEFG",
      },
      {
        recommendationId: "r1",
        recommendationTitle: "Block public buckets",
        initiativeSlug: "cis-aws",
        initiativeTitle: "CIS AWS",
        provider: "AWS",
        defaultSelectedPolicies: ["a", "b"],
        policyKey: "ABCDEFG",
      },
    ],
    [{ provider: "Azure" }, { provider: "Azure" }],
    [{ provider: "GCP" }, {}],
    [{ provider: "aws" }, {}],
    [{ defaultSelectedPolicies: "only-one" }, { defaultSelectedPolicies: ["only-one"] }],
  ])("%j -> %j", (input, expected) => {
    expect(policyCreateSearchSchema.parse(input)).toEqual(expected);
  });
});

import { describe, expect, it } from "vitest";
import { parseCreatePolicyDraft } from "./create-policy-draft";

const draft = {
  slug: "aws-deny-public-s3",
  name: "No public buckets",
  mode: 2,
  approval: null,
  namespace: "storage",
  scopes: [{ provider: 1, externalId: "ou-1", name: "Workloads", type: 2, connectorId: "c-1" }],
  inputs: { allowedRegions: '["eu-west-1"]', enforce: true },
};

describe("parseCreatePolicyDraft", () => {
  it("reads back the deploy form as the page saved it", () => {
    expect(parseCreatePolicyDraft(JSON.parse(JSON.stringify(draft)))).toEqual(draft);
    expect(parseCreatePolicyDraft({ ...draft, approval: 1 })?.approval).toBe(1);
  });

  it.each([
    ["not an object", "x"],
    ["a list", [draft]],
    ["no slug", { ...draft, slug: undefined }],
    ["a mode that is not a number", { ...draft, mode: "PREVENT" }],
    ["a scope without its connector", { ...draft, scopes: [{ ...draft.scopes[0], connectorId: 3 }] }],
    ["scopes that are not a list", { ...draft, scopes: {} }],
    ["a parameter that is an object", { ...draft, inputs: { allowedRegions: ["eu-west-1"] } }],
  ])("refuses %s", (_, value) => {
    expect(parseCreatePolicyDraft(value)).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { scpsEnabledCheck } from "./aws-verify";

// Roots as ListRoots documents them (https://docs.aws.amazon.com/organizations/latest/APIReference/API_ListRoots.html),
// each with the status of its policy types (https://docs.aws.amazon.com/organizations/latest/APIReference/API_PolicyTypeSummary.html).
const root = (status?: "ENABLED" | "PENDING_ENABLE" | "PENDING_DISABLE") => ({
  Id: "r-examplerootid111",
  Arn: "arn:aws:organizations::111111111111:root/o-exampleorgid/r-examplerootid111",
  Name: "Root",
  PolicyTypes: status ? [{ Type: "SERVICE_CONTROL_POLICY" as const, Status: status }] : [],
});

describe("the 'Service control policies enabled' connection check", () => {
  it("passes with all features and the SCP type enabled on the root", () => {
    expect(scpsEnabledCheck({ featureSet: "ALL", roots: [root("ENABLED")] }).ok).toBe(true);
  });

  it.each([
    [
      "consolidated billing only",
      { featureSet: "CONSOLIDATED_BILLING", roots: [root("ENABLED")] },
      /need all features/,
    ],
    [
      "the SCP type not enabled on the root",
      { featureSet: "ALL", roots: [root()] },
      /not enabled on root r-examplerootid111/,
    ],
    ["the SCP type being enabled", { featureSet: "ALL", roots: [root("PENDING_ENABLE")] }, /being enabled/],
    [
      "the SCP type being disabled",
      { featureSet: "ALL", roots: [root("PENDING_DISABLE")] },
      /not enabled on root/,
    ],
    ["no root listed", { featureSet: "ALL", roots: [] }, /not enabled/],
  ])("fails with %s, and says what to do", (_name, organisation, message) => {
    const check = scpsEnabledCheck(organisation);
    expect(check.ok).toBe(false);
    expect(check.message).toMatch(message);
  });
});

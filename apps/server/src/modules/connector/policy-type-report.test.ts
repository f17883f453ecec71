import { describe, expect, it } from "vitest";
import { policyTypeReport } from "./policy-type-report";

// Root.PolicyTypes: https://docs.aws.amazon.com/organizations/latest/APIReference/API_Root.html
// EnablePolicyType: https://docs.aws.amazon.com/organizations/latest/APIReference/API_EnablePolicyType.html
const root = (types: [string, string][]) => [
  { rootId: "r-ab12", types: types.map(([type, status]) => ({ type, status })) },
];

describe("the policy types an organisation has enabled", () => {
  it("reports every type, and for one not enabled the command that enables it, without failing an unneeded type", () => {
    const { states, checks } = policyTypeReport(root([["SERVICE_CONTROL_POLICY", "ENABLED"]]), [
      "SERVICE_CONTROL_POLICY",
    ]);
    expect(states.map((s) => [s.type, s.status, s.enabled, s.needed])).toEqual([
      ["SERVICE_CONTROL_POLICY", "ENABLED", true, true],
      ["RESOURCE_CONTROL_POLICY", "NOT_ENABLED", false, false],
      ["DECLARATIVE_POLICY_EC2", "NOT_ENABLED", false, false],
    ]);
    expect(states[0]?.remedy).toBe("");
    expect(states[1]?.remedy).toContain(
      "aws organizations enable-policy-type --root-id r-ab12 --policy-type RESOURCE_CONTROL_POLICY",
    );
    expect(states[2]?.remedy).toContain("--policy-type DECLARATIVE_POLICY_EC2");
    expect(checks).toEqual([]);
  });

  it("fails the test for a needed type that is missing, naming it and the command", () => {
    const { checks } = policyTypeReport(root([["SERVICE_CONTROL_POLICY", "ENABLED"]]), [
      "SERVICE_CONTROL_POLICY",
      "RESOURCE_CONTROL_POLICY",
    ]);
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ name: "Resource control policies enabled", ok: false });
    expect(checks[0]?.message).toMatch(/Palisade deploys guardrails of this type.*organisation's decision/);
    expect(checks[0]?.message).toContain("--root-id r-ab12 --policy-type RESOURCE_CONTROL_POLICY");
  });

  it("says to test again while AWS is still enabling a type", () => {
    const { states, checks } = policyTypeReport(
      root([
        ["SERVICE_CONTROL_POLICY", "ENABLED"],
        ["RESOURCE_CONTROL_POLICY", "PENDING_ENABLE"],
      ]),
      ["RESOURCE_CONTROL_POLICY"],
    );
    expect(states[1]).toMatchObject({ status: "PENDING_ENABLE", enabled: false });
    expect(checks[0]?.message).toMatch(/test the connection again in a few minutes/);
  });
});

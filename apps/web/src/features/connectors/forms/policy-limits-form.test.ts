import { AwsPolicyType } from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import { describe, expect, it } from "vitest";
import { EMPTY_POLICY_LIMITS, policyLimitsOf, policyLimitValuesOf } from "./policy-limits-form";

describe("quotas per policy type on the connector form", () => {
  it("sends only the types with a stated value, 0 for the value left at AWS's default", () => {
    const entries = policyLimitsOf({
      ...EMPTY_POLICY_LIMITS,
      scpMaxCharacters: "10240",
      rcpMaxPerTarget: "8",
    });
    expect(entries).toEqual([
      { type: AwsPolicyType.SERVICE_CONTROL_POLICY, maxCharacters: 10240, maxPerTarget: 0 },
      { type: AwsPolicyType.RESOURCE_CONTROL_POLICY, maxCharacters: 0, maxPerTarget: 8 },
    ]);
  });

  it("fills the form from what the connector states and leaves the defaults empty", () => {
    const values = policyLimitValuesOf({
      policyLimits: [
        { type: AwsPolicyType.DECLARATIVE_POLICY_EC2, maxCharacters: 0, maxPerTarget: 20 },
      ] as never,
    });
    expect(values).toEqual({ ...EMPTY_POLICY_LIMITS, declarativeMaxPerTarget: "20" });
    expect(policyLimitsOf(values)).toEqual([
      { type: AwsPolicyType.DECLARATIVE_POLICY_EC2, maxCharacters: 0, maxPerTarget: 20 },
    ]);
  });
});

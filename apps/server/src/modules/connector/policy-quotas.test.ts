import { create } from "@bufbuild/protobuf";
import { AwsPolicyType, ConnectorConfigSchema } from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import { DEFAULT_SCP_LIMITS, LOWER_SCP_LIMITS } from "@palisade/policy-engine/compilers/aws/pack-scps";
import { describe, expect, it } from "vitest";
import { readConfig } from "./connector-config";
import { connectorMessage } from "./connector-message";
import type { ConnectorRow } from "./connector-repository";
import { DEFAULT_POLICY_LIMITS, policyLimitsOf } from "./policy-quotas";

const aws = (value: Record<string, unknown>) =>
  create(ConnectorConfigSchema, {
    kind: {
      case: "aws",
      value: {
        managementAccountId: "111122223333",
        roleArn: "arn:aws:iam::111122223333:role/PalisadeConnector",
        ...value,
      },
    },
  });

const stored = (value: Record<string, unknown>) => readConfig(aws(value), undefined, false).config;

function refusal(value: Record<string, unknown>): string {
  try {
    stored(value);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("accepted");
}

describe("AWS quotas per policy type", () => {
  // https://docs.aws.amazon.com/organizations/latest/userguide/orgs_reference_limits.html
  it("defaults to the documented quotas of each type", () => {
    const config = stored({});
    expect(config).not.toHaveProperty("policyLimits");
    expect(policyLimitsOf(config, "SERVICE_CONTROL_POLICY")).toEqual({ perTarget: 10, characters: 10_240 });
    expect(policyLimitsOf(config, "RESOURCE_CONTROL_POLICY")).toEqual({ perTarget: 5, characters: 5120 });
    expect(policyLimitsOf(config, "DECLARATIVE_POLICY_EC2")).toEqual({ perTarget: 10, characters: 10_000 });
    expect(DEFAULT_POLICY_LIMITS.SERVICE_CONTROL_POLICY).toEqual(DEFAULT_SCP_LIMITS);
  });

  it("keeps each type's stated quota apart, and a 0 leaves that value at AWS's default", () => {
    const config = stored({
      policyLimits: [
        { type: AwsPolicyType.SERVICE_CONTROL_POLICY, maxCharacters: 5120, maxPerTarget: 5 },
        { type: AwsPolicyType.RESOURCE_CONTROL_POLICY, maxCharacters: 0, maxPerTarget: 8 },
      ],
    });
    expect(policyLimitsOf(config, "SERVICE_CONTROL_POLICY")).toEqual(LOWER_SCP_LIMITS);
    expect(policyLimitsOf(config, "RESOURCE_CONTROL_POLICY")).toEqual({ perTarget: 8, characters: 5120 });
    expect(policyLimitsOf(config, "DECLARATIVE_POLICY_EC2")).toEqual({ perTarget: 10, characters: 10_000 });
  });

  it("reads the older SCP settings, stored or sent, as the SCP entry", () => {
    const older = { provider: "aws", scpLimits: { characters: 5120, perTarget: 5 } };
    expect(policyLimitsOf(older, "SERVICE_CONTROL_POLICY")).toEqual(LOWER_SCP_LIMITS);
    expect(policyLimitsOf(older, "RESOURCE_CONTROL_POLICY")).toEqual({ perTarget: 5, characters: 5120 });
    const sent = stored({ scpMaxCharacters: 5120, scpMaxPerTarget: 5 });
    expect(policyLimitsOf(sent, "SERVICE_CONTROL_POLICY")).toEqual(LOWER_SCP_LIMITS);
    // The per-type entry wins over the older fields.
    const both = stored({
      scpMaxCharacters: 7000,
      policyLimits: [{ type: AwsPolicyType.SERVICE_CONTROL_POLICY, maxCharacters: 5120 }],
    });
    expect(policyLimitsOf(both, "SERVICE_CONTROL_POLICY")).toEqual({ perTarget: 10, characters: 5120 });
  });

  it("returns what the connector states, with the SCP entry in the older fields too", () => {
    const config = stored({
      policyLimits: [{ type: AwsPolicyType.DECLARATIVE_POLICY_EC2, maxPerTarget: 20 }],
      scpMaxPerTarget: 10,
    });
    const row = {
      id: "c1",
      name: "org",
      kind: "aws",
      config,
      status: "NEVER_SYNCED",
      readFailures: {},
      createdAt: new Date(),
      updatedAt: new Date(),
    } as unknown as ConnectorRow;
    const kind = connectorMessage(row).config?.kind;
    expect(kind?.case).toBe("aws");
    const value = kind?.case === "aws" ? kind.value : undefined;
    expect(value?.scpMaxPerTarget).toBe(10);
    expect(value?.policyLimits.map((l) => [AwsPolicyType[l.type], l.maxPerTarget, l.maxCharacters])).toEqual([
      ["SERVICE_CONTROL_POLICY", 10, 0],
      ["DECLARATIVE_POLICY_EC2", 20, 0],
    ]);
  });

  it("ignores a stored value out of bounds (edited by hand) for the default", () => {
    const config = { policyLimits: { SERVICE_CONTROL_POLICY: { characters: -4, perTarget: 2.5 } } };
    expect(policyLimitsOf(config, "SERVICE_CONTROL_POLICY")).toEqual(DEFAULT_SCP_LIMITS);
  });

  it.each([
    [
      "a type given twice",
      {
        policyLimits: [
          { type: AwsPolicyType.RESOURCE_CONTROL_POLICY, maxPerTarget: 6 },
          { type: AwsPolicyType.RESOURCE_CONTROL_POLICY, maxPerTarget: 7 },
        ],
      },
      "config.aws.policy_limits[1].type RESOURCE_CONTROL_POLICY is given twice",
    ],
    [
      "an unspecified type",
      { policyLimits: [{ type: AwsPolicyType.UNSPECIFIED, maxPerTarget: 6 }] },
      "config.aws.policy_limits[0].type must be one of SERVICE_CONTROL_POLICY, RESOURCE_CONTROL_POLICY, DECLARATIVE_POLICY_EC2",
    ],
    [
      "more characters than any quota",
      { policyLimits: [{ type: AwsPolicyType.SERVICE_CONTROL_POLICY, maxCharacters: 1_000_001 }] },
      "config.aws.policy_limits[0].max_characters must be a whole number from 1 to 1,000,000",
    ],
    [
      "more policies per target than any quota",
      { policyLimits: [{ type: AwsPolicyType.DECLARATIVE_POLICY_EC2, maxPerTarget: 1001 }] },
      "config.aws.policy_limits[0].max_per_target must be a whole number from 1 to 1,000",
    ],
  ])("refuses %s, naming the field", (_name, value, message) => {
    expect(refusal(value)).toContain(message);
  });
});

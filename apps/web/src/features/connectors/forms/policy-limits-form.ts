import {
  type AwsConnectorConfig,
  type AwsPolicyLimits,
  AwsPolicyType,
} from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import * as z from "zod/mini";

/**
 * The policy types an AWS connector states quotas for, with AWS's documented quotas
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_reference_limits.html, "Maximum
 * size of a policy document" and "Number of policies that you can attach to an entity"; the SCP
 * quotas doubled on 15 May 2026).
 */
export const POLICY_TYPES = [
  {
    type: AwsPolicyType.SERVICE_CONTROL_POLICY,
    key: "scp",
    label: "Service control policies",
    short: "SCP",
    perTarget: 10,
    characters: 10_240,
  },
  {
    type: AwsPolicyType.RESOURCE_CONTROL_POLICY,
    key: "rcp",
    label: "Resource control policies",
    short: "RCP",
    perTarget: 5,
    characters: 5120,
  },
  {
    type: AwsPolicyType.DECLARATIVE_POLICY_EC2,
    key: "declarative",
    label: "Declarative policies for EC2",
    short: "Declarative",
    perTarget: 10,
    characters: 10_000,
  },
] as const;

export type PolicyTypeKey = (typeof POLICY_TYPES)[number]["key"];
type LimitField = `${PolicyTypeKey}MaxCharacters` | `${PolicyTypeKey}MaxPerTarget`;
export type PolicyLimitValues = Record<LimitField, string>;

const number = (max: RegExp, message: string) => z.string().check(z.trim(), z.regex(max, message));
const characters = (label: string) =>
  number(/^([1-9]\d{0,5}|1000000)?$/, `Characters per ${label} is a number up to 1,000,000`);
const perTarget = (label: string) =>
  number(/^([1-9]\d{0,2}|1000)?$/, `${label}s per target is a number up to 1,000`);

/** Empty: AWS's default quota for the type. */
export const policyLimitShape = {
  scpMaxCharacters: characters("SCP"),
  scpMaxPerTarget: perTarget("SCP"),
  rcpMaxCharacters: characters("RCP"),
  rcpMaxPerTarget: perTarget("RCP"),
  declarativeMaxCharacters: characters("declarative policy"),
  declarativeMaxPerTarget: perTarget("Declarative policie"),
};

export const policyLimitsSchema = z.object(policyLimitShape);

export const EMPTY_POLICY_LIMITS: PolicyLimitValues = {
  scpMaxCharacters: "",
  scpMaxPerTarget: "",
  rcpMaxCharacters: "",
  rcpMaxPerTarget: "",
  declarativeMaxCharacters: "",
  declarativeMaxPerTarget: "",
};

/** The contract's entries: one per type with a stated value (0 keeps the other at the default). */
export function policyLimitsOf(values: PolicyLimitValues) {
  return POLICY_TYPES.flatMap(({ type, key }) => {
    const maxCharacters = Number(values[`${key}MaxCharacters`]) || 0;
    const maxPerTarget = Number(values[`${key}MaxPerTarget`]) || 0;
    return maxCharacters || maxPerTarget ? [{ type, maxCharacters, maxPerTarget }] : [];
  });
}

/** The form's values from a connector's stated quotas. */
export function policyLimitValuesOf(config: Pick<AwsConnectorConfig, "policyLimits">): PolicyLimitValues {
  const values = { ...EMPTY_POLICY_LIMITS };
  for (const { type, key } of POLICY_TYPES) {
    const entry: AwsPolicyLimits | undefined = config.policyLimits.find((l) => l.type === type);
    if (entry?.maxCharacters) values[`${key}MaxCharacters`] = String(entry.maxCharacters);
    if (entry?.maxPerTarget) values[`${key}MaxPerTarget`] = String(entry.maxPerTarget);
  }
  return values;
}

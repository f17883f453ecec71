import { AWS_POLICY_TYPES, type AwsPolicyType } from "@palisade/policy-engine/catalogue/definition-schema";
import { DEFAULT_RCP_LIMITS, DEFAULT_SCP_LIMITS } from "@palisade/policy-engine/compilers/aws/pack-scps";
import { invalidArgument } from "../../rpc/errors";

/** How many policies of a type a root, OU or account may have, and how long each may be. */
export interface PolicyLimits {
  perTarget: number;
  characters: number;
}

/** What a connector stores: only the quotas it states for the organisation. */
export type StoredPolicyLimits = Partial<Record<AwsPolicyType, Partial<PolicyLimits>>>;

/**
 * AWS Organizations' quotas, per type: "Maximum size of a policy document"
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_reference_limits.html#min-max-values)
 * and "Number of policies that you can attach to an entity"
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_reference_limits.html#min-max-policies):
 * SCPs 10 per root, OU or account of 10,240 characters (both doubled on 15 May 2026), RCPs 5 of
 * 5,120 (RCPFullAWSAccess counted among the 5), declarative policies 10 of 10,000. A connector may
 * state other quotas for its organisation.
 */
export const DEFAULT_POLICY_LIMITS: Readonly<Record<AwsPolicyType, PolicyLimits>> = {
  SERVICE_CONTROL_POLICY: DEFAULT_SCP_LIMITS,
  RESOURCE_CONTROL_POLICY: DEFAULT_RCP_LIMITS,
  DECLARATIVE_POLICY_EC2: { perTarget: 10, characters: 10_000 },
};

/** Bounds of a stated quota: above them a value is a typing error, not a quota AWS grants. */
export const MAX_PER_TARGET = 1000;
export const MAX_CHARACTERS = 1_000_000;

/** How the connector form and the messages name each type. */
export const POLICY_TYPE_LABEL: Readonly<Record<AwsPolicyType, string>> = {
  SERVICE_CONTROL_POLICY: "Service control policies",
  RESOURCE_CONTROL_POLICY: "Resource control policies",
  DECLARATIVE_POLICY_EC2: "Declarative policies for EC2",
};

const isType = (value: unknown): value is AwsPolicyType =>
  typeof value === "string" && (AWS_POLICY_TYPES as readonly string[]).includes(value);

/** One stated quota as entered: 0 or absent leaves AWS's default; anything else must be in bounds. */
function readValue(value: number | undefined, field: string, max: number): number | undefined {
  if (value === undefined || value === 0) return undefined;
  if (!Number.isInteger(value) || value < 0 || value > max)
    throw invalidArgument(`${field} must be a whole number from 1 to ${max.toLocaleString("en")}.`, [
      { field, message: `${field} must be 1 to ${max}.` },
    ]);
  return value;
}

/** One entry of the settings as the contract carries it; `type` is the Organizations name. */
export interface PolicyLimitsInput {
  type: string;
  characters: number;
  perTarget: number;
}

/**
 * Checks the quotas of a connector's settings: one entry per known type, values 0 (AWS's default)
 * or 1 up to the bounds. Entries that only repeat the defaults are not stored.
 */
export function readPolicyLimits(entries: PolicyLimitsInput[], field: string): StoredPolicyLimits {
  const out: StoredPolicyLimits = {};
  entries.forEach((entry, index) => {
    const at = `${field}[${index}]`;
    if (!isType(entry.type))
      throw invalidArgument(`${at}.type must be one of ${AWS_POLICY_TYPES.join(", ")}.`, [
        { field: `${at}.type`, message: "unknown policy type" },
      ]);
    if (out[entry.type])
      throw invalidArgument(`${at}.type ${entry.type} is given twice; give each type once.`, [
        { field: `${at}.type`, message: "given twice" },
      ]);
    const characters = readValue(entry.characters, `${at}.max_characters`, MAX_CHARACTERS);
    const perTarget = readValue(entry.perTarget, `${at}.max_per_target`, MAX_PER_TARGET);
    out[entry.type] = {
      ...(characters !== undefined ? { characters } : {}),
      ...(perTarget !== undefined ? { perTarget } : {}),
    };
  });
  for (const type of AWS_POLICY_TYPES) if (out[type] && Object.keys(out[type]).length === 0) delete out[type];
  return out;
}

/** The quotas a stored configuration states for a type, before defaults (the older `scpLimits` is the SCP entry). */
export function statedLimits(config: unknown, type: AwsPolicyType): Partial<PolicyLimits> {
  const stored = config as { policyLimits?: StoredPolicyLimits; scpLimits?: Partial<PolicyLimits> } | null;
  const own = stored?.policyLimits?.[type];
  if (own) return own;
  return type === "SERVICE_CONTROL_POLICY" ? (stored?.scpLimits ?? {}) : {};
}

/**
 * The quotas of a connector's organisation for one policy type. AWS Organizations does not expose
 * them through its API, so they are the connector's own settings, else AWS's defaults; a stored
 * value out of bounds (edited by hand) is ignored for the default.
 */
export function policyLimitsOf(config: unknown, type: AwsPolicyType): PolicyLimits {
  const stated = statedLimits(config, type);
  const pick = (value: unknown, fallback: number, max: number) =>
    typeof value === "number" && Number.isInteger(value) && value > 0 && value <= max ? value : fallback;
  const defaults = DEFAULT_POLICY_LIMITS[type];
  return {
    perTarget: pick(stated.perTarget, defaults.perTarget, MAX_PER_TARGET),
    characters: pick(stated.characters, defaults.characters, MAX_CHARACTERS),
  };
}

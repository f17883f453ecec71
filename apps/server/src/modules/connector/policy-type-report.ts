import { AWS_POLICY_TYPES, type AwsPolicyType } from "@palisade/policy-engine/catalogue/definition-schema";
import type { ConnectionCheck, RootPolicyTypes } from "../../cloud/cloud-provider";
import { POLICY_TYPE_LABEL } from "./policy-quotas";

/** One policy type as the organisation's root reports it, and what to do when it is missing. */
export interface PolicyTypeState {
  type: AwsPolicyType;
  enabled: boolean;
  /** ENABLED, PENDING_ENABLE, PENDING_DISABLE, or NOT_ENABLED when the root does not list it. */
  status: string;
  needed: boolean;
  /** Empty when enabled. */
  remedy: string;
}

/**
 * Each policy type Palisade knows, as each root's `PolicyTypes` from ListRoots reports it
 * (https://docs.aws.amazon.com/organizations/latest/APIReference/API_Root.html). Enabling a type is
 * the organisation's decision (EnablePolicyType,
 * https://docs.aws.amazon.com/organizations/latest/APIReference/API_EnablePolicyType.html), so
 * Palisade never enables one: it says what is missing and the command that enables it. A type
 * Palisade needs that is not enabled is also a failed check.
 */
export function policyTypeReport(
  roots: RootPolicyTypes[],
  needed: readonly AwsPolicyType[],
): { states: PolicyTypeState[]; checks: ConnectionCheck[] } {
  const rootId = roots[0]?.rootId || "r-xxxx";
  const states = AWS_POLICY_TYPES.map((type): PolicyTypeState => {
    const statuses = roots.map((root) => root.types.find((t) => t.type === type)?.status ?? "NOT_ENABLED");
    const status = statuses.find((s) => s !== "ENABLED") ?? (statuses.length > 0 ? "ENABLED" : "NOT_ENABLED");
    const enabled = status === "ENABLED";
    const label = POLICY_TYPE_LABEL[type].toLowerCase();
    const remedy = enabled
      ? ""
      : status === "PENDING_ENABLE"
        ? `AWS is enabling ${label} on root ${rootId}; test the connection again in a few minutes.`
        : `${POLICY_TYPE_LABEL[type]} are not enabled on root ${rootId}${
            needed.includes(type) ? ", and Palisade deploys guardrails of this type" : ""
          }. Whether to enable them is the organisation's decision; from the management account: ` +
          `aws organizations enable-policy-type --root-id ${rootId} --policy-type ${type} ` +
          "(or AWS Organizations console > Policies).";
    return { type, enabled, status, needed: needed.includes(type), remedy };
  });
  const checks = states
    .filter((s) => s.needed && !s.enabled && s.type !== "SERVICE_CONTROL_POLICY")
    .map((s) => ({ name: `${POLICY_TYPE_LABEL[s.type]} enabled`, ok: false, message: s.remedy }));
  return { states, checks };
}

/** The policy types Palisade deploys guardrails of today. */
export const NEEDED_POLICY_TYPES: readonly AwsPolicyType[] = ["SERVICE_CONTROL_POLICY"];

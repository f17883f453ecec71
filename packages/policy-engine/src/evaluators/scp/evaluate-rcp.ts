import type { PackedPolicyType } from "../../catalogue/definition-schema";
import { evaluateScpHierarchy, type IamRequest, type ScpDecision, type ScpPolicy } from "./evaluate-scp";
import { RCP_SERVICES } from "./validate-scp-document";

export interface OrganizationDecision extends ScpDecision {
  /** The policy type that decided a denial. */
  policyType?: PackedPolicyType;
}

/**
 * The organisation's part of an authorisation
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic_policy-eval-denyallow.html):
 * an explicit Deny in any resource control policy or service control policy denies; otherwise the
 * RCPs on the resource's account path must allow (RCPFullAWSAccess at every level), then the SCPs on
 * the caller's account path. RCPs grant nothing: an allow here only lets identity and resource
 * policies decide. `rcpLevels` is empty when RCPs do not apply (a management-account resource, a
 * service-linked role, RCPs not enabled); `scpLevels` is empty for the management account's callers
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_rcps.html#actions-not-restricted-by-rcps).
 */
export function evaluateOrganizationPolicies(
  request: IamRequest,
  scpLevels: ScpPolicy[][],
  rcpLevels: ScpPolicy[][],
): OrganizationDecision {
  const rcp =
    rcpLevels.length > 0 ? evaluateScpHierarchy(request, rcpLevels) : { decision: "allow" as const };
  if (rcp.decision === "explicit_deny") return { ...rcp, policyType: "RESOURCE_CONTROL_POLICY" };
  const scp =
    scpLevels.length > 0 ? evaluateScpHierarchy(request, scpLevels) : { decision: "allow" as const };
  if (scp.decision === "explicit_deny") return { ...scp, policyType: "SERVICE_CONTROL_POLICY" };
  if (rcp.decision === "implicit_deny") return { ...rcp, policyType: "RESOURCE_CONTROL_POLICY" };
  if (scp.decision === "implicit_deny") return { ...scp, policyType: "SERVICE_CONTROL_POLICY" };
  return { decision: "allow" };
}

/**
 * Whether the RCPs of a resource's account apply to a request
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_rcps.html):
 * only resources of member accounts, never calls by service-linked roles, only actions of the
 * services RCPs support. The caller's own account does not matter.
 */
export function rcpsApply(input: {
  resourceAccountId: string;
  managementAccountId: string;
  memberAccountIds: ReadonlySet<string> | readonly string[];
  principalArn: string;
  action: string;
}): boolean {
  const members = input.memberAccountIds;
  const member =
    "has" in members ? members.has(input.resourceAccountId) : members.includes(input.resourceAccountId);
  if (!member || input.resourceAccountId === input.managementAccountId) return false;
  if (isServiceLinkedRole(input.principalArn)) return false;
  return RCP_SERVICES.has(input.action.split(":")[0]?.toLowerCase() ?? "");
}

/** Service-linked roles live under `role/aws-service-role/`; RCPs do not restrict their calls. */
export function isServiceLinkedRole(principalArn: string): boolean {
  return /^arn:[^:]+:iam::\d{12}:role\/aws-service-role\//.test(principalArn);
}

import { randomBytes } from "node:crypto";
import { evaluatedPrincipalArn } from "@palisade/policy-engine/principals/principal-arn";
import type { AwsState } from "../state/model";
import type { StateStore } from "../state/store";
import { type AwsCaller, AwsError } from "./common";
import { findTarget, orgArn, policyArn } from "./organization-tree";
import { type OrganizationsInput, required, str } from "./organizations-input";
import { globMatch } from "./sts";

/**
 * The organisation's resource-based delegation policy: the management account delegates
 * Organizations actions to member accounts
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_delegate_policies.html,
 * https://docs.aws.amazon.com/organizations/latest/APIReference/API_PutResourcePolicy.html).
 */
export const RESOURCE_POLICY_ACTIONS = new Set([
  "PutResourcePolicy",
  "DescribeResourcePolicy",
  "DeleteResourcePolicy",
]);

/** Resource-based policies are at most 40,000 characters (PutResourcePolicy's Content). */
const MAX_CONTENT = 40_000;

const DENIED = "You don't have permissions to access this resource.";

/**
 * What a delegation policy can hand a member account: reads, and the policy actions
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_delegate_policies.html). Other
 * writes (accounts, OUs, the delegation policy itself) stay with the management account.
 */
const DELEGABLE_WRITES = new Set([
  "CreatePolicy",
  "UpdatePolicy",
  "DeletePolicy",
  "AttachPolicy",
  "DetachPolicy",
  "EnablePolicyType",
  "DisablePolicyType",
  "TagResource",
  "UntagResource",
]);

interface Statement {
  Effect?: string;
  Principal?: string | { AWS?: string | string[] };
  Action?: string | string[];
  Resource?: string | string[];
  Condition?: Record<string, Record<string, string | string[]>>;
}

const list = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

function statementsOf(aws: AwsState): Statement[] {
  if (!aws.resourcePolicy) return [];
  const doc = JSON.parse(aws.resourcePolicy.content) as { Statement?: Statement | Statement[] };
  return list(doc.Statement);
}

function namesCaller(statement: Statement, caller: AwsCaller): boolean {
  const principal = statement.Principal;
  const names = principal === "*" ? ["*"] : list(typeof principal === "object" ? principal.AWS : undefined);
  const role = evaluatedPrincipalArn(caller.arn);
  return names.some(
    (p) =>
      p === `arn:aws:iam::${caller.accountId}:root` ||
      p === caller.accountId ||
      p === caller.arn ||
      p === role,
  );
}

/** The resources a request acts on, as IAM names them for Organizations' actions. */
function resourcesOf(aws: AwsState, action: string, input: OrganizationsInput): string[] {
  if (action === "CreatePolicy")
    return [
      `arn:aws:organizations::${aws.managementAccountId}:policy/${aws.organizationId}/service_control_policy/*`,
    ];
  const out: string[] = [];
  for (const key of [
    "PolicyId",
    "TargetId",
    "ResourceId",
    "ParentId",
    "ChildId",
    "AccountId",
    "OrganizationalUnitId",
  ]) {
    const id = str(input, key);
    if (!id) continue;
    const policy = aws.policies.find((p) => p.id === id);
    const target = findTarget(aws, id);
    if (policy) out.push(policyArn(aws, policy));
    else if (target) out.push(target.arn);
  }
  return out;
}

/** organizations:PolicyType as the request carries it (https://docs.aws.amazon.com/service-authorization/latest/reference/list_awsorganizations.html). */
function policyTypeOf(aws: AwsState, action: string, input: OrganizationsInput): string | undefined {
  if (action === "CreatePolicy") return str(input, "Type");
  if (action === "ListPolicies" || action === "ListPoliciesForTarget") return str(input, "Filter");
  const id = str(input, "PolicyId") ?? str(input, "ResourceId");
  const policy = id ? aws.policies.find((p) => p.id === id) : undefined;
  return policy ? (policy.type ?? "SERVICE_CONTROL_POLICY") : undefined;
}

/**
 * Conditions on organizations:PolicyType with the string operators (their IfExists forms
 * included); any other key or operator never matches, so the sandbox is never kinder than AWS.
 */
function conditionsHold(statement: Statement, policyType: string | undefined): boolean {
  return Object.entries(statement.Condition ?? {}).every(([operator, entries]) =>
    Object.entries(entries).every(([key, expected]) => {
      if (key.toLowerCase() !== "organizations:policytype") return false;
      const ifExists = operator.endsWith("IfExists");
      const base = ifExists ? operator.slice(0, -"IfExists".length) : operator;
      if (policyType === undefined) return ifExists;
      if (base === "StringEquals") return list(expected).includes(policyType);
      if (base === "StringLike") return list(expected).some((e) => globMatch(e, policyType));
      return false;
    }),
  );
}

/**
 * Whether the delegation policy lets a member account's caller make this call: a statement that
 * names the caller's account (or the caller), the action and every resource of the request, with
 * its conditions met, and no Deny statement that does the same.
 */
export function delegationAllows(
  aws: AwsState,
  caller: AwsCaller,
  action: string,
  input: OrganizationsInput,
): boolean {
  if (!/^(Describe|List)/.test(action) && !DELEGABLE_WRITES.has(action)) return false;
  const resources = resourcesOf(aws, action, input);
  const policyType = policyTypeOf(aws, action, input);
  const applies = (s: Statement) =>
    namesCaller(s, caller) &&
    list(s.Action).some((a) => globMatch(a.toLowerCase(), `organizations:${action}`.toLowerCase())) &&
    (resources.length === 0
      ? list(s.Resource).includes("*")
      : resources.every((r) => list(s.Resource).some((p) => globMatch(p, r)))) &&
    conditionsHold(s, policyType);
  const statements = statementsOf(aws);
  if (statements.some((s) => s.Effect === "Deny" && applies(s))) return false;
  return statements.some((s) => s.Effect === "Allow" && applies(s));
}

/** Whether any statement of the delegation policy names the caller's account. */
export function isDelegatedAdministrator(aws: AwsState, caller: AwsCaller): boolean {
  return statementsOf(aws).some((s) => s.Effect === "Allow" && namesCaller(s, caller));
}

function validateDelegation(content: string) {
  if (content.length > MAX_CONTENT)
    throw new AwsError("ConstraintViolationException", "The resource policy is too large.", 400, {
      Reason: "POLICY_CONTENT_LIMIT_EXCEEDED",
    });
  let doc: { Statement?: unknown };
  try {
    doc = JSON.parse(content) as { Statement?: unknown };
  } catch {
    throw new AwsError("MalformedPolicyDocumentException", "The provided policy document is not valid JSON.");
  }
  const statements = list(doc.Statement as Statement | Statement[] | undefined);
  const valid =
    statements.length > 0 &&
    statements.every(
      (s) =>
        s &&
        (s.Effect === "Allow" || s.Effect === "Deny") &&
        s.Principal !== undefined &&
        list(s.Action).length > 0 &&
        list(s.Action).every((a) => typeof a === "string" && /^organizations:/i.test(a)) &&
        list(s.Resource).length > 0,
    );
  if (!valid)
    throw new AwsError(
      "MalformedPolicyDocumentException",
      "Each statement needs an Effect, a Principal, organizations actions and a Resource.",
    );
}

/**
 * PutResourcePolicy and DeleteResourcePolicy from the management account only; DescribeResourcePolicy
 * from it or a delegated administrator (https://docs.aws.amazon.com/organizations/latest/APIReference/API_DescribeResourcePolicy.html).
 */
export function handleResourcePolicyAction(
  store: StateStore,
  caller: AwsCaller,
  action: string,
  input: OrganizationsInput,
): unknown {
  const aws = store.state.aws;
  const management = caller.accountId === aws.managementAccountId;
  const summary = (p: { id: string; content: string }) => ({
    ResourcePolicy: {
      ResourcePolicySummary: { Id: p.id, Arn: orgArn(aws, "resourcepolicy", p.id) },
      Content: p.content,
    },
  });
  if (action === "DescribeResourcePolicy") {
    if (!management && !isDelegatedAdministrator(aws, caller))
      throw new AwsError("AccessDeniedException", DENIED);
    if (!aws.resourcePolicy)
      throw new AwsError(
        "ResourcePolicyNotFoundException",
        "We can't find a resource policy request with the parameter that you specified.",
      );
    return summary(aws.resourcePolicy);
  }
  if (!management) throw new AwsError("AccessDeniedException", DENIED);
  if (action === "DeleteResourcePolicy") {
    if (!aws.resourcePolicy)
      throw new AwsError(
        "ResourcePolicyNotFoundException",
        "We can't find a resource policy request with the parameter that you specified.",
      );
    aws.resourcePolicy = undefined;
    store.changed();
    return {};
  }
  const content = required(input, "Content");
  validateDelegation(content);
  aws.resourcePolicy = { id: aws.resourcePolicy?.id ?? `rp-${randomBytes(4).toString("hex")}`, content };
  store.changed();
  return summary(aws.resourcePolicy);
}

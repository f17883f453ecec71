import { compilePolicy, type PreparedRequest } from "./compile-policy";
import type { IamPolicyDocument } from "./iam-policy-document";

export type { IamPolicyDocument } from "./iam-policy-document";

export type ContextValue = string | number | boolean | string[];

/** Context keys use their IAM names ("aws:PrincipalArn", "ec2:MetadataHttpTokens", ...), case-insensitively. */
export interface IamRequest {
  action: string;
  resource: string;
  principalArn: string;
  context: Record<string, ContextValue>;
}

export interface ScpPolicy {
  id: string;
  arn: string;
  name: string;
  document: string | IamPolicyDocument;
}

export interface ScpDecision {
  decision: "allow" | "explicit_deny" | "implicit_deny";
  policy?: ScpPolicy;
  statementIndex?: number;
  sid?: string;
}

const ARN_ACCOUNT = /^arn:[^:]*:[^:]*:[^:]*:(\d{12}):/;

export function prepareRequest(request: IamRequest): PreparedRequest {
  const context = new Map<string, ContextValue>();
  for (const [key, value] of Object.entries(request.context)) context.set(key.toLowerCase(), value);
  // The principal is part of every request AWS evaluates, so its keys exist even when the caller
  // only filled in principalArn.
  if (!context.has("aws:principalarn") && request.principalArn)
    context.set("aws:principalarn", request.principalArn);
  if (!context.has("aws:principalaccount")) {
    const account = ARN_ACCOUNT.exec(request.principalArn)?.[1];
    if (account) context.set("aws:principalaccount", account);
  }
  return {
    actionLower: request.action.toLowerCase(),
    resource: request.resource,
    context,
    lookup: (key) => {
      const value = context.get(key);
      // A multivalued key cannot stand in for a policy variable.
      return value === undefined || Array.isArray(value) ? undefined : String(value);
    },
  };
}

interface LevelResult {
  deny?: ScpDecision;
  allow?: ScpDecision;
}

function evaluateLevel(request: PreparedRequest, policies: ScpPolicy[]): LevelResult {
  let allow: ScpDecision | undefined;
  for (const policy of policies) {
    const compiled = compilePolicy(policy.document);
    for (const statement of compiled.denies) {
      if (statement.applies(request)) {
        return {
          deny: { decision: "explicit_deny", policy, statementIndex: statement.index, sid: statement.sid },
        };
      }
    }
    if (!allow) {
      const allowing = compiled.allows.find((statement) => statement.applies(request));
      if (allowing) allow = { decision: "allow", policy, statementIndex: allowing.index, sid: allowing.sid };
    }
  }
  return allow ? { allow } : {};
}

/**
 * One level of the organization tree (the SCPs attached to one root, OU or account): an explicit
 * Deny in any policy wins, otherwise some statement must Allow, otherwise the request is implicitly denied.
 */
export function evaluatePolicySet(request: IamRequest, policies: ScpPolicy[]): ScpDecision {
  const result = evaluateLevel(prepareRequest(request), policies);
  return result.deny ?? result.allow ?? { decision: "implicit_deny" };
}

/**
 * The whole path from the root to the account. An explicit Deny at any level denies; otherwise
 * every level must allow. The allow reported is the one nearest the account (the last level).
 * With no levels there are no SCPs in effect and nothing is restricted.
 */
export function evaluateScpHierarchy(request: IamRequest, levels: ScpPolicy[][]): ScpDecision {
  const prepared = prepareRequest(request);
  let allow: ScpDecision | undefined;
  let implicitlyDenied = false;
  for (const policies of levels) {
    const result = evaluateLevel(prepared, policies);
    if (result.deny) return result.deny;
    if (result.allow) allow = result.allow;
    else implicitlyDenied = true;
  }
  if (implicitlyDenied) return { decision: "implicit_deny" };
  return allow ?? { decision: "allow" };
}

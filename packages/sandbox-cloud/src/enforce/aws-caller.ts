import type { ContextValue } from "@palisade/policy-engine/evaluators/scp/evaluate-scp";
import { parseRoleSession } from "@palisade/policy-engine/principals/principal-arn";
import { uniqueId } from "../aws/identity";
import { targetPath } from "../aws/organization-tree";
import type { AwsAccount, AwsPrincipal, AwsState } from "../state/model";

/** Who makes a request: an IAM user, a session of an IAM role, or an AWS service principal. */
export interface AwsCaller {
  /** The ARN the request is signed as (a user, role or role-session ARN), or the service's name. */
  arn: string;
  /** `aws:PrincipalArn`: a role session is evaluated as its role; empty for a service principal. */
  principalArn: string;
  accountId: string;
  kind: "user" | "role-session" | "service";
  user?: AwsPrincipal;
  role?: AwsPrincipal;
  sessionName?: string;
  serviceName?: string;
}

/** Service principals are named `<service>.amazonaws.com` (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_principal.html#principal-services). */
const SERVICE_PRINCIPAL = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.amazonaws\.com$/;

/**
 * A principal named in a try: an ARN (user, role or role session), `user/NAME`, `role/NAME`
 * or `role/NAME/SESSION` in the account, or a service principal. A role named without a
 * session acts as a session named after it.
 */
export function resolveCaller(aws: AwsState, ref: string, account: AwsAccount): AwsCaller | undefined {
  if (SERVICE_PRINCIPAL.test(ref))
    return { arn: ref, principalArn: "", accountId: account.id, kind: "service", serviceName: ref };
  const outside = outsideCaller(aws, ref);
  if (outside) return outside;
  const session = parseRoleSession(ref);
  if (session) {
    const role = aws.principals.find(
      (p) => p.kind === "role" && p.accountId === session.accountId && p.name === session.roleName,
    );
    return role && roleSession(ref, role, session.sessionName);
  }
  if (ref.startsWith("arn:")) {
    const known = aws.principals.find((p) => p.arn === ref);
    if (!known) return undefined;
    return known.kind === "user" ? userCaller(known) : roleSession(known.arn, known, known.name);
  }
  const [kind, name, sessionName] = ref.includes("/") ? ref.split("/", 3) : [undefined, ref];
  const known = aws.principals.find(
    (p) => p.accountId === account.id && p.name === name && (kind === undefined || p.kind === kind),
  );
  if (!known) return undefined;
  if (known.kind === "user") return sessionName === undefined ? userCaller(known) : undefined;
  const arn = sessionName
    ? `arn:aws:sts::${known.accountId}:assumed-role/${known.name}/${sessionName}`
    : known.arn;
  return roleSession(arn, known, sessionName ?? known.name);
}

/**
 * A user, role or role session of an account outside the organisation. The sandbox holds no IAM of
 * such accounts, so the principal is taken as named: it exists for the call, carries no
 * organisation keys, and no SCP of this organisation restricts it; the resource's RCPs do
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_rcps.html).
 */
function outsideCaller(aws: AwsState, ref: string): AwsCaller | undefined {
  const m = /^arn:aws:(iam|sts)::(\d{12}):(user|role|assumed-role)\/(.+)$/.exec(ref);
  if (!m || aws.accounts.some((a) => a.id === m[2])) return undefined;
  const [, , accountId, kind, rest] = m as unknown as [string, string, string, string, string];
  const name = (kind === "assumed-role" ? rest.split("/")[0] : rest.split("/").pop()) ?? rest;
  const principal = (k: "user" | "role", arn: string): AwsPrincipal => ({
    arn,
    accountId,
    kind: k,
    name,
    human: false,
  });
  if (kind === "user") return userCaller(principal("user", ref));
  if (kind === "role") return roleSession(ref, principal("role", ref), name);
  const sessionName = rest.split("/")[1];
  if (!sessionName) return undefined;
  return roleSession(ref, principal("role", `arn:aws:iam::${accountId}:role/${name}`), sessionName);
}

function userCaller(user: AwsPrincipal): AwsCaller {
  return { arn: user.arn, principalArn: user.arn, accountId: user.accountId, kind: "user", user };
}

function roleSession(arn: string, role: AwsPrincipal, sessionName: string): AwsCaller {
  return { arn, principalArn: role.arn, accountId: role.accountId, kind: "role-session", role, sessionName };
}

/** The unique id IAM gives a user (AIDA...) or role (AROA...). */
export function uniqueIdOf(principal: AwsPrincipal): string {
  return uniqueId(principal.kind === "user" ? "AIDA" : "AROA", principal.arn);
}

/** `aws:userid` of a caller: a user's unique id, or "ROLEID:SESSION" for a role session. */
export function userIdOf(caller: AwsCaller): string | undefined {
  if (caller.kind === "user") return uniqueIdOf(caller.user!);
  if (caller.kind === "role-session") return `${uniqueIdOf(caller.role!)}:${caller.sessionName}`;
  return undefined;
}

/**
 * The principal's global condition keys, as AWS sets them
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-keys.html#condition-keys-principal-properties):
 * aws:PrincipalArn is a role session's role; aws:userid is a user's unique id or
 * "ROLEID:SESSION"; aws:username exists for users only; a service principal has
 * aws:PrincipalServiceName and none of the IAM principal's keys.
 */
export function principalContext(aws: AwsState, caller: AwsCaller): Record<string, ContextValue> {
  if (caller.kind === "service")
    return { "aws:PrincipalIsAWSService": "true", "aws:PrincipalServiceName": caller.serviceName! };
  const identity: Record<string, string> =
    caller.kind === "user"
      ? { "aws:PrincipalType": "User", "aws:userid": userIdOf(caller)!, "aws:username": caller.user!.name }
      : { "aws:PrincipalType": "AssumedRole", "aws:userid": userIdOf(caller)! };
  return {
    "aws:PrincipalArn": caller.principalArn,
    "aws:PrincipalAccount": caller.accountId,
    // A principal of an account outside the organisation has no organisation keys.
    ...(aws.accounts.some((a) => a.id === caller.accountId)
      ? {
          "aws:PrincipalOrgID": aws.organizationId,
          // The organisation, root and OUs above the principal's account, as AWS writes the path:
          // "o-xxx/r-xxx/ou-xxx/.../". SCP exceptions for an OU match on it.
          "aws:PrincipalOrgPaths": [principalOrgPath(aws, caller.accountId)],
        }
      : {}),
    ...identity,
    "aws:PrincipalIsAWSService": "false",
  };
}

function principalOrgPath(aws: AwsState, accountId: string): string {
  const levels = targetPath(aws, accountId).slice(0, -1);
  return `${[aws.organizationId, ...levels].join("/")}/`;
}

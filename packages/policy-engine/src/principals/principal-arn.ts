import { WildcardPattern } from "../evaluators/scp/policy-string";

// How AWS names the principal of a request in `aws:PrincipalArn`
// (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-keys.html#condition-keys-principalarn):
// an IAM user by its user ARN, a role session by the ARN of its role (never the session ARN
// arn:aws:sts::ACCOUNT:assumed-role/NAME/SESSION), the root user by arn:aws:iam::ACCOUNT:root.

const NAME = "[\\w+=,.@-]+";
const ROLE_SESSION = new RegExp(`^arn:(aws[a-z-]*):sts::(\\d{12}):assumed-role/(${NAME})/(${NAME})$`);
/** A role ARN with or without its path; role names never contain "/". */
const ROLE = new RegExp(`^arn:(aws[a-z-]*):iam::(\\d{12}):role/(?:[^*?]*/)?(${NAME})$`);
const USER = new RegExp(`^arn:(aws[a-z-]*):iam::(\\d{12}):user/(?:[^*?]*/)?(${NAME})$`);

export interface RoleSession {
  partition: string;
  accountId: string;
  roleName: string;
  sessionName: string;
}

export function parseRoleSession(arn: string): RoleSession | undefined {
  const match = ROLE_SESSION.exec(arn);
  if (!match) return undefined;
  const [, partition, accountId, roleName, sessionName] = match as unknown as string[];
  return { partition: partition!, accountId: accountId!, roleName: roleName!, sessionName: sessionName! };
}

/**
 * The role a session ARN belongs to. A session ARN does not carry the role's path, so the role
 * is named by its account and name, which identify it: role names are unique in an account
 * whatever their path (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_identifiers.html#identifiers-friendly-names).
 */
function roleOfSession(session: RoleSession): string {
  return `arn:${session.partition}:iam::${session.accountId}:role/${session.roleName}`;
}

/** The `aws:PrincipalArn` AWS evaluates for a caller's ARN: a role session is evaluated as its role. */
export function evaluatedPrincipalArn(arn: string): string {
  const session = parseRoleSession(arn.trim());
  return session ? roleOfSession(session) : arn.trim();
}

/** CloudTrail's `userIdentity` (https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-event-reference-user-identity.html). */
export interface CloudTrailIdentity {
  type?: string;
  arn?: string;
  sessionContext?: { sessionIssuer?: { type?: string; arn?: string } };
}

/** `aws:PrincipalArn` of the request a CloudTrail record describes. */
export function principalArnOfIdentity(identity: CloudTrailIdentity, fallback = ""): string {
  const issuer = identity.sessionContext?.sessionIssuer;
  if (identity.type === "AssumedRole" && issuer?.arn) return issuer.arn;
  return evaluatedPrincipalArn(identity.arn ?? fallback);
}

// The ArnLike pattern a waiver for `arn` writes on `aws:PrincipalArn`. A role is matched by its
// account and name whatever its path: "role*/NAME" matches role/NAME and role/PATH/NAME and no
// other role, because a role named from one of its sessions has no known path (IAM Identity
// Center's roles live under aws-reserved/sso.amazonaws.com/). Other ARNs are used as given.
export function waiverPrincipalPattern(arn: string): string {
  const principal = evaluatedPrincipalArn(arn);
  const role = ROLE.exec(principal);
  if (!role) return principal;
  const [, partition, accountId, roleName] = role as unknown as string[];
  return `arn:${partition}:iam::${accountId}:role*/${roleName}`;
}

/** Does a waiver for `waiverArn` let `principalArn` (the request's `aws:PrincipalArn`, or a session ARN) through? */
export function waiverCoversPrincipal(waiverArn: string, principalArn: string): boolean {
  const pattern = new WildcardPattern(waiverPrincipalPattern(waiverArn), {
    caseInsensitive: false,
    arnComponents: true,
    variables: false,
  });
  return pattern.matches(evaluatedPrincipalArn(principalArn), () => undefined) === true;
}

/** What a principal waiver covers, in words for the requester. */
export function describeWaiverPrincipal(arn: string): string {
  const principal = evaluatedPrincipalArn(arn);
  const role = ROLE.exec(principal);
  if (role) return `every session of the IAM role ${role[3]} in account ${role[2]}, whatever its path`;
  const user = USER.exec(principal);
  if (user) return `the IAM user ${user[3]} in account ${user[2]}`;
  return `the principals matching ${principal}`;
}

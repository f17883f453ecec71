import { createHash } from "node:crypto";
import type { AwsState } from "../state/model";

/**
 * IAM's unique ids: a type prefix (AIDA for users, AROA for roles) and 17 characters, one id per
 * principal (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_identifiers.html#identifiers-unique-ids).
 * Derived from the principal's ARN so every record, `aws:userid` and STS answer of a principal
 * carries the same id.
 */
export function uniqueId(prefix: "AIDA" | "AROA", arn: string): string {
  const digest = createHash("sha256").update(arn).digest();
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let id = prefix;
  for (let i = 0; i < 17; i++) id += alphabet[digest[i]! % 32];
  return id;
}

/**
 * The caller ARN a request carries: an IAM user's ARN, or an assumed-role session. A role named
 * without a session acts as a session named after the role, as the sandbox's `try` resolves it.
 */
export function callerArnOf(principalArn: string): string {
  const m = /^arn:aws:iam::(\d{12}):role\/(?:.*\/)?([^/]+)$/.exec(principalArn);
  return m ? `arn:aws:sts::${m[1]}:assumed-role/${m[2]}/${m[2]}` : principalArn;
}

/** The role's ARN as IAM holds it (with its path, which a session ARN omits). */
function roleArnOf(aws: AwsState, accountId: string, roleName: string): string {
  const role = aws.principals.find(
    (p) => p.kind === "role" && p.accountId === accountId && p.name === roleName,
  );
  return role?.arn ?? `arn:aws:iam::${accountId}:role/${roleName}`;
}

/** `userIdentity` of a CloudTrail record (https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-event-reference-user-identity.html). */
export function userIdentity(
  aws: AwsState,
  principalArn: string,
  accessKeyId: string | undefined,
  sessionCreated: string,
): Record<string, unknown> {
  // A service principal's call is recorded with the service that invoked it.
  if (principalArn.endsWith(".amazonaws.com")) return { type: "AWSService", invokedBy: principalArn };
  const arn = callerArnOf(principalArn);
  const [, , service, , accountId = "", resource = ""] = arn.split(":");
  const key = accessKeyId ? { accessKeyId } : {};
  if (service === "sts" && resource.startsWith("assumed-role/")) {
    const [, roleName = "", session = ""] = resource.split("/");
    const roleArn = roleArnOf(aws, accountId, roleName);
    const roleId = uniqueId("AROA", roleArn);
    return {
      type: "AssumedRole",
      principalId: `${roleId}:${session}`,
      arn,
      accountId,
      ...key,
      sessionContext: {
        sessionIssuer: { type: "Role", principalId: roleId, arn: roleArn, accountId, userName: roleName },
        webIdFederationData: {},
        attributes: { creationDate: sessionCreated, mfaAuthenticated: "false" },
      },
    };
  }
  return {
    type: "IAMUser",
    principalId: uniqueId("AIDA", arn),
    arn,
    accountId,
    ...key,
    userName: resource.split("/").pop(),
  };
}

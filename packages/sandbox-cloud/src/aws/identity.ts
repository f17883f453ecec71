import { createHash } from "node:crypto";

/**
 * IAM's unique ids: a type prefix (AIDA for users, AROA for roles) and 17 characters, one id per
 * principal (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_identifiers.html#identifiers-unique-ids).
 * Derived from the ARN so every record of a principal carries the same id.
 */
export function uniqueId(prefix: "AIDA" | "AROA", arn: string): string {
  const digest = createHash("sha256").update(arn).digest();
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let id = prefix;
  for (let i = 0; i < 17; i++) id += alphabet[digest[i]! % 32];
  return id;
}

/** The session a call by a role runs as, when the caller names the role rather than one of its sessions. */
export const DEFAULT_SESSION_NAME = "sandbox-session";

/** The caller ARN a request carries: an IAM user's ARN, or the assumed-role session of a role. */
export function callerArnOf(principalArn: string): string {
  const m = /^arn:aws:iam::(\d{12}):role\/(?:.*\/)?([^/]+)$/.exec(principalArn);
  return m ? `arn:aws:sts::${m[1]}:assumed-role/${m[2]}/${DEFAULT_SESSION_NAME}` : principalArn;
}

/** `userIdentity` of a CloudTrail record (https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-event-reference-user-identity.html). */
export function userIdentity(
  principalArn: string,
  accessKeyId: string | undefined,
  sessionCreated: string,
): Record<string, unknown> {
  const arn = callerArnOf(principalArn);
  const [, , service, , accountId = "", resource = ""] = arn.split(":");
  const key = accessKeyId ? { accessKeyId } : {};
  if (service === "sts" && resource.startsWith("assumed-role/")) {
    const [, roleName = "", session = ""] = resource.split("/");
    const roleArn = `arn:aws:iam::${accountId}:role/${roleName}`;
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

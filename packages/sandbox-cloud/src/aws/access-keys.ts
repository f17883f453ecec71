import { randomBytes } from "node:crypto";
import type { AwsState } from "../state/model";

const KEY_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/**
 * A long-term access key for an IAM user, as an administrator creates one with
 * iam:CreateAccessKey: the way a script or test acts as that user over SigV4. `principal` is the
 * user's ARN, or `user/<name>` with `account` (id or name). A user's ARN in an account outside the
 * organisation gives a key of that outside principal: the sandbox holds no IAM of such accounts, so
 * it is taken as named, carries no organisation keys and no SCP restricts it, while the RCPs of the
 * organisation's resources it calls apply to it, as AWS applies them whoever the caller is
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_rcps.html).
 */
export function issueAccessKey(
  aws: AwsState,
  principal: string,
  account: string | undefined,
): { accessKeyId: string; secretAccessKey: string; principalArn: string } | undefined {
  const accountId = aws.accounts.find((a) => a.id === account || a.name === account)?.id;
  const name = principal.startsWith("user/") ? principal.slice(5) : undefined;
  const user = aws.principals.find(
    (p) =>
      p.kind === "user" &&
      (p.arn === principal || (name !== undefined && p.accountId === accountId && p.name === name)),
  );
  const outside = /^arn:aws:iam::(\d{12}):user\/[\w+=,.@-]{1,64}$/.exec(principal);
  const outsideArn = outside && !aws.accounts.some((a) => a.id === outside[1]) ? principal : undefined;
  const principalArn = user?.arn ?? outsideArn;
  if (!principalArn) return undefined;
  const key = {
    accessKeyId: `AKIA${[...randomBytes(16)].map((b) => KEY_ALPHABET[b % 32]).join("")}`,
    secretAccessKey: randomBytes(30).toString("base64"),
    principalArn,
  };
  aws.accessKeys.push(key);
  return key;
}

/**
 * Replaces the trust policy of a role of the organisation, as iam:UpdateAssumeRolePolicy does
 * (https://docs.aws.amazon.com/IAM/latest/APIReference/API_UpdateAssumeRolePolicy.html): the way a
 * test lets another account's principals assume it. False when no such role exists or the document
 * is not JSON.
 */
export function updateRoleTrust(aws: AwsState, roleArn: string, trustPolicy: string): boolean {
  const role = aws.principals.find((p) => p.kind === "role" && p.arn === roleArn);
  if (!role) return false;
  try {
    JSON.parse(trustPolicy);
  } catch {
    return false;
  }
  role.trustPolicy = trustPolicy;
  return true;
}

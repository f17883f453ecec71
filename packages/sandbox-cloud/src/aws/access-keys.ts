import { randomBytes } from "node:crypto";
import type { AwsState } from "../state/model";

const KEY_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/**
 * A long-term access key for an IAM user of the organisation, as an administrator creates one with
 * iam:CreateAccessKey: the way a script or test acts as that user over SigV4. `principal` is the
 * user's ARN, or `user/<name>` with `account` (id or name).
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
  if (!user) return undefined;
  const key = {
    accessKeyId: `AKIA${[...randomBytes(16)].map((b) => KEY_ALPHABET[b % 32]).join("")}`,
    secretAccessKey: randomBytes(30).toString("base64"),
    principalArn: user.arn,
  };
  aws.accessKeys.push(key);
  return key;
}

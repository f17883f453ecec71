import { type AwsCaller as Principal, resolveCaller } from "../enforce/aws-caller";
import { header, type SandboxRequest } from "../http/types";
import type { AwsAccount, AwsState } from "../state/model";
import { type AwsCaller, AwsError } from "./common";

export interface WireCaller {
  /** The signed request's key, ARN and Region. */
  signed: AwsCaller;
  /** The principal as IAM evaluates it. */
  principal: Principal;
  account: AwsAccount;
  /** The client's User-Agent, as CloudTrail records it. */
  userAgent?: string;
}

/**
 * The principal a SigV4 key belongs to: a seeded user, a session of a role, or a user created
 * through iam:CreateUser (whose keys come from iam:CreateAccessKey).
 */
export function wireCaller(aws: AwsState, signed: AwsCaller, req: SandboxRequest): WireCaller {
  const userAgent = header(req, "user-agent");
  const account = aws.accounts.find((a) => a.id === signed.accountId);
  const known = account && resolveCaller(aws, signed.arn, account);
  if (account && known) return { signed, principal: known, account, userAgent };
  const created = aws.resources.find((r) => r.type === "AWS::IAM::User" && r.arn === signed.arn);
  if (account && created) {
    const user = {
      arn: created.arn,
      accountId: created.accountId,
      kind: "user" as const,
      name: created.name,
      human: false,
    };
    return {
      signed,
      principal: { arn: user.arn, principalArn: user.arn, accountId: user.accountId, kind: "user", user },
      account,
      userAgent,
    };
  }
  // The key's principal no longer exists (a deleted user): IAM no longer accepts its keys.
  throw new AwsError("InvalidClientTokenId", "The security token included in the request is invalid.", 403);
}

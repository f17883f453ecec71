import { rcpsApply } from "@palisade/policy-engine/evaluators/scp/evaluate-rcp";
import type { ScpPolicy } from "@palisade/policy-engine/evaluators/scp/evaluate-scp";
import {
  policiesForTarget,
  policyArn,
  policyTypeEnabled,
  RCP,
  SCP,
  targetPath,
} from "../aws/organization-tree";
import type { AwsState } from "../state/model";

function levels(aws: AwsState, accountId: string, type: string): ScpPolicy[][] {
  return targetPath(aws, accountId).map((target) =>
    policiesForTarget(aws, target, type).map((p) => ({
      id: p.id,
      arn: policyArn(aws, p),
      name: p.name,
      document: p.content,
    })),
  );
}

/** The SCPs of each level from the root down to the caller's account; none for the management account. */
export function scpLevels(aws: AwsState, accountId: string): ScpPolicy[][] {
  // SCPs never restrict the management account
  // (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_scps.html).
  if (accountId === aws.managementAccountId) return [];
  return levels(aws, accountId, SCP);
}

/**
 * The RCPs of each level from the root down to the account that owns the resource, whoever calls
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_rcps.html):
 * none when RCPs are not enabled, for a resource of the management account or outside the
 * organisation, for a call by a service-linked role, or for an action of a service RCPs do not cover.
 */
export function rcpLevels(
  aws: AwsState,
  resourceAccountId: string,
  principalArn: string,
  action: string,
): ScpPolicy[][] {
  if (!policyTypeEnabled(aws, RCP)) return [];
  const memberAccountIds = aws.accounts.map((a) => a.id);
  const { managementAccountId } = aws;
  if (!rcpsApply({ resourceAccountId, managementAccountId, memberAccountIds, principalArn, action }))
    return [];
  return levels(aws, resourceAccountId, RCP);
}

const ARN_ACCOUNT = /^arn:[^:]*:[^:]*:[^:]*:(\d{12}):/;
const S3_ARN = /^arn:[^:]*:s3:::([^/]+)/;

/** The account that owns a resource: a bucket's owner, else the account in the ARN, else the caller's. */
export function resourceAccountOf(aws: AwsState, arn: string, fallback: string): string {
  const bucket = S3_ARN.exec(arn)?.[1];
  if (bucket)
    return (
      aws.s3Buckets.find((b) => b.name === bucket)?.accountId ??
      aws.resources.find((r) => r.arn === `arn:aws:s3:::${bucket}`)?.accountId ??
      fallback
    );
  return ARN_ACCOUNT.exec(arn)?.[1] ?? fallback;
}

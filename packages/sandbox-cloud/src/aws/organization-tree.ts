import type { AwsScp, AwsState } from "../state/model";

export type OrganizationTarget = {
  id: string;
  arn: string;
  name: string;
  type: "ROOT" | "ORGANIZATIONAL_UNIT" | "ACCOUNT";
};

export const SCP = "SERVICE_CONTROL_POLICY";
export const RCP = "RESOURCE_CONTROL_POLICY";
export const DECLARATIVE_EC2 = "DECLARATIVE_POLICY_EC2";

export function policyTypeOf(policy: Pick<AwsScp, "type">): string {
  return policy.type ?? SCP;
}

export function policyArn(aws: AwsState, policy: Pick<AwsScp, "id" | "awsManaged" | "type">): string {
  const kind = policyTypeOf(policy).toLowerCase();
  return policy.awsManaged
    ? `arn:aws:organizations::aws:policy/${kind}/${policy.id}`
    : `arn:aws:organizations::${aws.managementAccountId}:policy/${aws.organizationId}/${kind}/${policy.id}`;
}

export function orgArn(aws: AwsState, kind: string, id: string) {
  return `arn:aws:organizations::${aws.managementAccountId}:${kind}/${aws.organizationId}/${id}`;
}

export function findTarget(aws: AwsState, id: string): OrganizationTarget | undefined {
  if (id === aws.rootId) return { id, arn: orgArn(aws, "root", id), name: "Root", type: "ROOT" };
  const ou = aws.ous.find((o) => o.id === id);
  if (ou) return { id, arn: orgArn(aws, "ou", id), name: ou.name, type: "ORGANIZATIONAL_UNIT" };
  const account = aws.accounts.find((a) => a.id === id);
  if (account) return { id, arn: orgArn(aws, "account", id), name: account.name, type: "ACCOUNT" };
  return undefined;
}

/** Root first, then each OU down to the account: the levels SCP evaluation walks. */
export function targetPath(aws: AwsState, accountId: string): string[] {
  const account = aws.accounts.find((a) => a.id === accountId);
  if (!account) return [];
  const path = [accountId];
  let parent = account.parentId;
  while (parent !== aws.rootId) {
    path.unshift(parent);
    parent = aws.ous.find((o) => o.id === parent)?.parentId ?? aws.rootId;
  }
  path.unshift(aws.rootId);
  return path;
}

/** The policies of one type attached to a target (SCPs unless another type is named). */
export function policiesForTarget(aws: AwsState, targetId: string, type: string = SCP): AwsScp[] {
  return aws.attachments
    .filter((a) => a.targetId === targetId)
    .map((a) => aws.policies.find((p) => p.id === a.policyId))
    .filter((p): p is AwsScp => p !== undefined && policyTypeOf(p) === type);
}

export function policyTypeEnabled(aws: AwsState, type: string): boolean {
  return type === SCP || (aws.enabledPolicyTypes ?? []).includes(type);
}

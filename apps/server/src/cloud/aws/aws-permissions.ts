import { AWS_POLICY_TYPES } from "@palisade/policy-engine/catalogue/definition-schema";
import { MANAGED_TAG } from "./aws-tags";

/** Read calls: the organisation, its policies and where they are attached, tags and delegation. */
const READ_ACTIONS = [
  "organizations:DescribeOrganization",
  "organizations:ListRoots",
  "organizations:ListOrganizationalUnitsForParent",
  "organizations:ListAccountsForParent",
  "organizations:ListPolicies",
  "organizations:ListPoliciesForTarget",
  "organizations:DescribePolicy",
  "organizations:ListTargetsForPolicy",
  "organizations:ListTagsForResource",
  "organizations:DescribeResourcePolicy",
  "cloudtrail:LookupEvents",
] as const;

/** Writes, each limited to policies carrying Palisade's tag. */
const WRITE_ACTIONS = [
  "organizations:CreatePolicy",
  "organizations:UpdatePolicy",
  "organizations:DeletePolicy",
  "organizations:AttachPolicy",
  "organizations:DetachPolicy",
  "organizations:TagResource",
] as const;

/** IAM actions the connector role needs, shown in the setup instructions. */
export const AWS_REQUIRED_ACTIONS = [...READ_ACTIONS, ...WRITE_ACTIONS];

const TAG = `aws:ResourceTag/${MANAGED_TAG.Key}`;
const REQUEST_TAG = `aws:RequestTag/${MANAGED_TAG.Key}`;
/**
 * The Organizations policy types Palisade writes, and their policy ARNs: the `policy` resource type
 * is `arn:${Partition}:organizations::${Account}:policy/o-${OrganizationId}/${PolicyType}/p-${PolicyId}`
 * (https://docs.aws.amazon.com/service-authorization/latest/reference/list_awsorganizations.html#awsorganizations-resources-for-iam-policies),
 * `${PolicyType}` being the type in lower case: `service_control_policy`, `resource_control_policy`,
 * `declarative_policy_ec2` (e.g. `…:policy/o-aa111bb222/declarative_policy_ec2/p-i9j8k7l6m5` in
 * https://docs.aws.amazon.com/organizations/latest/userguide/orgs_policies_create.html). AWS-managed
 * policies (`awspolicy`, `arn:${Partition}:organizations::aws:policy/${PolicyType}/p-${PolicyId}`, such
 * as FullAWSAccess) have no `o-` segment, so these patterns leave them out.
 */
const MANAGED_POLICY_ARNS = AWS_POLICY_TYPES.map(
  (type) => `arn:aws:organizations::*:policy/*/${type.toLowerCase()}/*`,
);

/**
 * The connector role's permissions policy. Per the service authorization reference for
 * Organizations (https://docs.aws.amazon.com/service-authorization/latest/reference/list_awsorganizations.html):
 * UpdatePolicy and DeletePolicy act on the policy resource, which supports `aws:ResourceTag`;
 * AttachPolicy and DetachPolicy act on the policy and on the target (root, OU or account), so
 * the tag condition goes on the policy ARN and the targets get a statement of their own;
 * CreatePolicy is allowed only with Palisade's tag in the request (`aws:RequestTag`, `aws:TagKeys`).
 * TagResource adds the tag, and only it, to Palisade's SCPs created before Palisade tagged them.
 * Each covers the policy types Palisade writes (SCPs, RCPs, declarative policies for EC2), and no other.
 */
export function awsPermissionsPolicy() {
  return {
    Version: "2012-10-17",
    Statement: [
      { Sid: "PalisadeRead", Effect: "Allow", Action: [...READ_ACTIONS], Resource: "*" },
      {
        Sid: "PalisadeCreateTaggedScps",
        Effect: "Allow",
        Action: "organizations:CreatePolicy",
        Resource: "*",
        Condition: {
          StringEquals: {
            [REQUEST_TAG]: MANAGED_TAG.Value,
            "organizations:PolicyType": [...AWS_POLICY_TYPES],
          },
          "ForAllValues:StringEquals": { "aws:TagKeys": [MANAGED_TAG.Key] },
        },
      },
      {
        Sid: "PalisadeManageTaggedScps",
        Effect: "Allow",
        Action: [
          "organizations:UpdatePolicy",
          "organizations:DeletePolicy",
          "organizations:AttachPolicy",
          "organizations:DetachPolicy",
        ],
        Resource: MANAGED_POLICY_ARNS,
        Condition: { StringEquals: { [TAG]: MANAGED_TAG.Value } },
      },
      {
        Sid: "PalisadeAttachToTargets",
        Effect: "Allow",
        Action: ["organizations:AttachPolicy", "organizations:DetachPolicy"],
        Resource: [
          "arn:aws:organizations::*:root/*",
          "arn:aws:organizations::*:ou/*",
          "arn:aws:organizations::*:account/*",
        ],
      },
      {
        Sid: "PalisadeTagItsOlderScps",
        Effect: "Allow",
        Action: "organizations:TagResource",
        Resource: MANAGED_POLICY_ARNS,
        Condition: {
          StringEquals: { [REQUEST_TAG]: MANAGED_TAG.Value },
          "ForAllValues:StringEquals": { "aws:TagKeys": [MANAGED_TAG.Key] },
        },
      },
    ],
  };
}

/** The Organizations actions a delegated administrator account needs delegated to it. */
export const DELEGATED_ACTIONS = AWS_REQUIRED_ACTIONS.filter(
  (a) => a.startsWith("organizations:") && a !== "organizations:DescribeResourcePolicy",
);

/**
 * The management account's resource-based delegation policy for a connector in a member account
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_delegate_policies.html;
 * examples: https://docs.aws.amazon.com/organizations/latest/userguide/security_iam_resource-based-policy-examples.html):
 * reads of the organisation, and policy writes for the policy types Palisade writes only.
 */
export function delegationPolicy(accountId: string) {
  const principal = { AWS: `arn:aws:iam::${accountId}:root` };
  const reads = DELEGATED_ACTIONS.filter((a) => /:(Describe|List)/.test(a));
  return {
    Version: "2012-10-17",
    Statement: [
      {
        Sid: "PalisadeReadOrganization",
        Effect: "Allow",
        Principal: principal,
        Action: reads,
        Resource: "*",
      },
      {
        Sid: "PalisadeManageScps",
        Effect: "Allow",
        Principal: principal,
        Action: DELEGATED_ACTIONS.filter((a) => !reads.includes(a)),
        Resource: "*",
        Condition: { StringLikeIfExists: { "organizations:PolicyType": [...AWS_POLICY_TYPES] } },
      },
    ],
  };
}

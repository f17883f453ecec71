import type { IamRequest, ScpPolicy } from "@palisade/policy-engine/evaluators/scp/evaluate-scp";

const ACCOUNT = "111122223333";
const ORG_POLICY = (id: string) =>
  `arn:aws:organizations::${ACCOUNT}:policy/o-exampleorg/service_control_policy/${id}`;

function scp(id: string, name: string, statements: unknown[]): ScpPolicy {
  // Deployed SCPs are stored as the minified JSON text Organizations returns.
  return {
    id,
    arn: ORG_POLICY(id),
    name,
    document: JSON.stringify({ Version: "2012-10-17", Statement: statements }),
  };
}

export const fullAwsAccess = scp("p-FullAWSAccess", "FullAWSAccess", [
  { Effect: "Allow", Action: "*", Resource: "*" },
]);

/** Five guardrails shaped like Palisade's compiled bundles: keyed Sids, conditions, waiver exceptions. */
export const guardrails: ScpPolicy[] = [
  scp("p-region", "palisade-K7QW2XR-deny-regions", [
    {
      Sid: "K7QW2XRDenyRegions",
      Effect: "Deny",
      NotAction: ["iam:*", "organizations:*", "route53:*", "cloudfront:*", "sts:*", "support:*", "budgets:*"],
      Resource: "*",
      Condition: {
        StringNotEquals: { "aws:RequestedRegion": ["eu-west-1", "eu-central-1"] },
        ArnNotLike: {
          "aws:PrincipalArn": [
            "arn:aws:iam::*:role/OrganizationAccountAccessRole",
            `arn:aws:iam::${ACCOUNT}:role/DataScience`,
          ],
        },
      },
    },
    // A waiver: the principal is taken out of the statement above and denied again only once
    // aws:CurrentTime passes the waiver's expiry.
    {
      Sid: "K7QW2XRWaiver1",
      Effect: "Deny",
      NotAction: ["iam:*", "organizations:*", "route53:*", "cloudfront:*", "sts:*", "support:*", "budgets:*"],
      Resource: "*",
      Condition: {
        StringNotEquals: { "aws:RequestedRegion": ["eu-west-1", "eu-central-1"] },
        ArnLike: { "aws:PrincipalArn": [`arn:aws:iam::${ACCOUNT}:role/DataScience`] },
        DateGreaterThan: { "aws:CurrentTime": "2026-05-02T10:00:00Z" },
      },
    },
  ]),
  scp("p-imds", "palisade-M3HT9PA-require-imdsv2", [
    {
      Sid: "M3HT9PARequireImdsV2",
      Effect: "Deny",
      Action: "ec2:RunInstances",
      Resource: "arn:aws:ec2:*:*:instance/*",
      Condition: { StringNotEquals: { "ec2:MetadataHttpTokens": "required" } },
    },
    {
      Sid: "M3HT9PAHopLimit",
      Effect: "Deny",
      Action: "ec2:RunInstances",
      Resource: "arn:aws:ec2:*:*:instance/*",
      Condition: { NumericGreaterThan: { "ec2:MetadataHttpPutResponseHopLimit": "2" } },
    },
  ]),
  scp("p-root", "palisade-Q8ZN4VB-deny-root", [
    {
      Sid: "Q8ZN4VBDenyRoot",
      Effect: "Deny",
      Action: "*",
      Resource: "*",
      Condition: { StringLike: { "aws:PrincipalArn": ["arn:aws:iam::*:root"] } },
    },
  ]),
  scp("p-trail", "palisade-W2CF6JD-protect-cloudtrail", [
    {
      Sid: "W2CF6JDProtectTrail",
      Effect: "Deny",
      Action: [
        "cloudtrail:StopLogging",
        "cloudtrail:DeleteTrail",
        "cloudtrail:UpdateTrail",
        "organizations:LeaveOrganization",
      ],
      Resource: "*",
      Condition: {
        ArnNotLike: {
          "aws:PrincipalArn": ["arn:aws:iam::*:role/SecurityAudit*", "arn:aws:iam::*:role/Break*Glass"],
        },
      },
    },
  ]),
  scp("p-tags", "palisade-X5RP7HE-require-owner-tag", [
    {
      Sid: "X5RP7HERequireOwner",
      Effect: "Deny",
      Action: ["ec2:RunInstances", "ec2:CreateVolume", "rds:CreateDBInstance", "s3:CreateBucket"],
      Resource: "*",
      Condition: { Null: { "aws:RequestTag/owner": "true" } },
    },
    {
      Sid: "X5RP7HEAllowedTagKeys",
      Effect: "Deny",
      Action: ["ec2:CreateTags", "ec2:RunInstances"],
      Resource: "*",
      Condition: { "ForAnyValue:StringNotLike": { "aws:TagKeys": ["owner", "env", "cost-*", "app"] } },
    },
    {
      Sid: "X5RP7HECorporateNetwork",
      Effect: "Deny",
      Action: ["s3:PutBucketPolicy", "s3:DeleteBucketPolicy"],
      Resource: "*",
      Condition: {
        NotIpAddress: { "aws:SourceIp": ["192.0.2.0/24", "2001:db8::/32"] },
        BoolIfExists: { "aws:ViaAWSService": "false" },
      },
    },
  ]),
];

const developer = `arn:aws:iam::${ACCOUNT}:role/Developer`;
const base = { "aws:CurrentTime": "2026-05-01T12:00:00Z", "aws:SourceIp": "198.51.100.20" };

function req(
  action: string,
  resource: string,
  context: IamRequest["context"],
  principalArn = developer,
): IamRequest {
  return { action, resource, principalArn, context: { ...base, ...context } };
}

/** A mix of allowed and denied calls across the guardrails, roughly as an audit stream would carry. */
export const requests: IamRequest[] = [
  req("s3:GetObject", "arn:aws:s3:::app-data/report.csv", { "aws:RequestedRegion": "eu-west-1" }),
  req("s3:PutObject", "arn:aws:s3:::app-data/upload.bin", { "aws:RequestedRegion": "eu-central-1" }),
  req("ec2:DescribeInstances", "*", { "aws:RequestedRegion": "us-east-1" }),
  req("iam:CreateRole", `arn:aws:iam::${ACCOUNT}:role/app`, { "aws:RequestedRegion": "us-east-1" }),
  req("ec2:RunInstances", `arn:aws:ec2:eu-west-1:${ACCOUNT}:instance/*`, {
    "aws:RequestedRegion": "eu-west-1",
    "ec2:MetadataHttpTokens": "required",
    "ec2:MetadataHttpPutResponseHopLimit": 1,
    "aws:RequestTag/owner": "team-a",
    "aws:TagKeys": ["owner", "env"],
  }),
  req("ec2:RunInstances", `arn:aws:ec2:eu-west-1:${ACCOUNT}:instance/*`, {
    "aws:RequestedRegion": "eu-west-1",
    "ec2:MetadataHttpTokens": "optional",
    "aws:RequestTag/owner": "team-a",
    "aws:TagKeys": ["owner"],
  }),
  req("ec2:CreateVolume", `arn:aws:ec2:eu-west-1:${ACCOUNT}:volume/*`, {
    "aws:RequestedRegion": "eu-west-1",
  }),
  req("cloudtrail:StopLogging", `arn:aws:cloudtrail:eu-west-1:${ACCOUNT}:trail/org`, {
    "aws:RequestedRegion": "eu-west-1",
  }),
  req(
    "cloudtrail:StopLogging",
    `arn:aws:cloudtrail:eu-west-1:${ACCOUNT}:trail/org`,
    { "aws:RequestedRegion": "eu-west-1" },
    `arn:aws:iam::${ACCOUNT}:role/SecurityAuditor`,
  ),
  req("sts:GetCallerIdentity", "*", { "aws:RequestedRegion": "eu-west-1" }, `arn:aws:iam::${ACCOUNT}:root`),
  req("s3:PutBucketPolicy", "arn:aws:s3:::app-data", {
    "aws:RequestedRegion": "eu-west-1",
    "aws:SourceIp": "2001:db8::7",
  }),
  req("s3:PutBucketPolicy", "arn:aws:s3:::app-data", { "aws:RequestedRegion": "eu-west-1" }),
  req("ec2:CreateTags", `arn:aws:ec2:eu-west-1:${ACCOUNT}:instance/i-0abc`, {
    "aws:RequestedRegion": "eu-west-1",
    "aws:TagKeys": ["owner", "secret-project"],
  }),
  req(
    "dynamodb:PutItem",
    `arn:aws:dynamodb:us-east-1:${ACCOUNT}:table/events`,
    { "aws:RequestedRegion": "us-east-1" },
    `arn:aws:iam::${ACCOUNT}:role/DataScience`,
  ),
];

/** Root, OU and account levels: FullAWSAccess everywhere, the guardrails spread over the tree. */
export const hierarchy: ScpPolicy[][] = [
  [fullAwsAccess, guardrails[0]!, guardrails[2]!],
  [fullAwsAccess, guardrails[1]!, guardrails[3]!],
  [fullAwsAccess, guardrails[4]!],
];

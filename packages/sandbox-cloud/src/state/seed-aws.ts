import type { AwsAccount, AwsOu, AwsPrincipal, AwsResource, AwsState } from "./model";
import type { Random } from "./random";

export const FULL_AWS_ACCESS_ID = "p-FullAWSAccess";
export const FULL_AWS_ACCESS_CONTENT = JSON.stringify({
  Version: "2012-10-17",
  Statement: [{ Effect: "Allow", Action: "*", Resource: "*" }],
});

const AWS_OUS: { name: string; parent: string | null }[] = [
  { name: "Security", parent: null },
  { name: "Infrastructure", parent: null },
  { name: "Workloads", parent: null },
  { name: "Workloads-Prod", parent: "Workloads" },
  { name: "Workloads-Dev", parent: "Workloads" },
  { name: "Sandbox", parent: null },
];

const AWS_ACCOUNTS: { name: string; ou: string }[] = [
  { name: "log-archive", ou: "Security" },
  { name: "security-tooling", ou: "Security" },
  { name: "shared-network", ou: "Infrastructure" },
  { name: "payments-prod", ou: "Workloads-Prod" },
  { name: "storefront-prod", ou: "Workloads-Prod" },
  { name: "payments-dev", ou: "Workloads-Dev" },
  { name: "storefront-dev", ou: "Workloads-Dev" },
  { name: "sandbox-alice", ou: "Sandbox" },
  { name: "sandbox-bob", ou: "Sandbox" },
];

export const AWS_HUMAN_USERS = ["alice", "bob", "carol", "dave"];
export const AWS_HUMAN_ROLES = ["Admin", "Developer", "ReadOnly"];
export const AWS_APP_ROLES = ["ci-deployer", "data-pipeline"];

/** The organization, its principals and resources; the connector's access key is drawn later. */
export function seedAwsOrganization(rnd: Random): Omit<
  AwsState,
  "connector" | "s3Buckets" | "organizationTrail" | "trailBatches"
> & {
  connector: Pick<AwsState["connector"], "userArn" | "roleArn" | "externalId">;
} {
  const managementAccountId = rnd.digits(12);
  const organizationId = `o-${rnd.chars(10)}`;
  const rootSuffix = rnd.chars(4);
  const rootId = `r-${rootSuffix}`;

  const ous: AwsOu[] = [];
  for (const ou of AWS_OUS) {
    const parentId = ou.parent ? ous.find((o) => o.name === ou.parent)!.id : rootId;
    ous.push({ id: `ou-${rootSuffix}-${rnd.chars(8)}`, name: ou.name, parentId });
  }
  const joined = new Date(Date.UTC(2021, 2, 1)).getTime();
  const accounts: AwsAccount[] = [
    {
      id: managementAccountId,
      name: "management",
      email: "aws-management@contoso.example",
      parentId: rootId,
      joinedMethod: "CREATED",
      joinedAt: new Date(joined).toISOString(),
    },
  ];
  AWS_ACCOUNTS.forEach((a, i) => {
    accounts.push({
      id: rnd.digits(12),
      name: a.name,
      email: `aws+${a.name}@contoso.example`,
      parentId: ous.find((o) => o.name === a.ou)!.id,
      joinedMethod: i % 4 === 3 ? "INVITED" : "CREATED",
      joinedAt: new Date(joined + (i + 1) * 86_400_000 * 17).toISOString(),
    });
  });

  const principals: AwsPrincipal[] = [];
  const connectorUserArn = `arn:aws:iam::${managementAccountId}:user/palisade-connector`;
  const externalId = `palisade-${rnd.chars(20)}`;
  const connectorRoleArn = `arn:aws:iam::${managementAccountId}:role/PalisadeConnector`;
  principals.push({
    arn: connectorUserArn,
    accountId: managementAccountId,
    kind: "user",
    name: "palisade-connector",
    human: false,
  });
  principals.push({
    arn: connectorRoleArn,
    accountId: managementAccountId,
    kind: "role",
    name: "PalisadeConnector",
    human: false,
    trustPolicy: JSON.stringify({
      Version: "2012-10-17",
      Statement: [
        {
          Effect: "Allow",
          Principal: { AWS: connectorUserArn },
          Action: "sts:AssumeRole",
          Condition: { StringEquals: { "sts:ExternalId": externalId } },
        },
      ],
    }),
  });
  for (const account of accounts) {
    for (const user of AWS_HUMAN_USERS) {
      principals.push({
        arn: `arn:aws:iam::${account.id}:user/${user}`,
        accountId: account.id,
        kind: "user",
        name: user,
        human: true,
      });
    }
    for (const role of [...AWS_HUMAN_ROLES, ...AWS_APP_ROLES]) {
      principals.push({
        arn: `arn:aws:iam::${account.id}:role/${role}`,
        accountId: account.id,
        kind: "role",
        name: role,
        human: AWS_HUMAN_ROLES.includes(role),
        trustPolicy: JSON.stringify({
          Version: "2012-10-17",
          Statement: [
            {
              Effect: "Allow",
              Principal: { AWS: `arn:aws:iam::${account.id}:root` },
              Action: "sts:AssumeRole",
            },
          ],
        }),
      });
    }
  }

  const resources: AwsResource[] = accounts.flatMap((account, i) =>
    seedAwsResources(rnd, account, i % 2 === 0 ? "us-east-1" : "eu-west-1"),
  );

  return {
    organizationId,
    managementAccountId,
    managementAccountEmail: accounts[0]!.email,
    rootId,
    ous,
    accounts,
    policies: [
      {
        id: FULL_AWS_ACCESS_ID,
        name: "FullAWSAccess",
        description: "Allows access to every operation",
        content: FULL_AWS_ACCESS_CONTENT,
        awsManaged: true,
      },
    ],
    // A real organisation attaches FullAWSAccess to every root, OU and account when SCPs are enabled.
    attachments: [rootId, ...ous.map((o) => o.id), ...accounts.map((a) => a.id)].map((targetId) => ({
      policyId: FULL_AWS_ACCESS_ID,
      targetId,
    })),
    principals,
    resources,
    accessKeys: [],
    connector: { userArn: connectorUserArn, roleArn: connectorRoleArn, externalId },
    trail: [],
  };
}

function seedAwsResources(rnd: Random, account: AwsAccount, region: string): AwsResource[] {
  const a = account.id;
  const hex = (n: number) => rnd.chars(n, "0123456789abcdef");
  const vpcId = `vpc-${hex(17)}`;
  const instanceId = `i-${hex(17)}`;
  return [
    {
      arn: `arn:aws:s3:::${account.name}-artifacts-${a.slice(-4)}`,
      type: "AWS::S3::Bucket",
      accountId: a,
      region,
      name: `${account.name}-artifacts-${a.slice(-4)}`,
      properties: { acl: "private", blockPublicAccess: true, encryption: "aws:kms" },
    },
    {
      arn: `arn:aws:ec2:${region}:${a}:vpc/${vpcId}`,
      type: "AWS::EC2::VPC",
      accountId: a,
      region,
      name: vpcId,
      properties: { cidrBlock: "10.0.0.0/16" },
    },
    {
      arn: `arn:aws:ec2:${region}:${a}:instance/${instanceId}`,
      type: "AWS::EC2::Instance",
      accountId: a,
      region,
      name: instanceId,
      properties: { instanceType: "t3.medium", metadataHttpTokens: "required", vpcId, state: "running" },
    },
    {
      arn: `arn:aws:ec2:${region}:${a}:volume/vol-${hex(17)}`,
      type: "AWS::EC2::Volume",
      accountId: a,
      region,
      name: `vol-${hex(17)}`,
      properties: { sizeGiB: 100, encrypted: true, attachedTo: instanceId },
    },
    {
      arn: `arn:aws:rds:${region}:${a}:db:${account.name}-db`,
      type: "AWS::RDS::DBInstance",
      accountId: a,
      region,
      name: `${account.name}-db`,
      properties: { engine: "postgres", storageEncrypted: true, publiclyAccessible: false },
    },
    {
      arn: `arn:aws:kms:${region}:${a}:key/${rnd.uuid()}`,
      type: "AWS::KMS::Key",
      accountId: a,
      region,
      name: `${account.name}-key`,
      properties: { keyState: "Enabled", keyRotationEnabled: true },
    },
    {
      arn: `arn:aws:cloudtrail:${region}:${a}:trail/organization-trail`,
      type: "AWS::CloudTrail::Trail",
      accountId: a,
      region,
      name: "organization-trail",
      properties: { isLogging: true, isMultiRegionTrail: true },
    },
  ];
}

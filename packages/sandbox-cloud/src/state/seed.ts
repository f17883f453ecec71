import { createHash } from "node:crypto";
import type {
  AwsAccount,
  AwsOu,
  AwsPrincipal,
  AwsResource,
  AzureArmResource,
  AzureManagementGroup,
  AzurePrincipal,
  AzureResourceGroup,
  AzureSubscription,
  SandboxState,
} from "./model";
import { createRandom, type Random } from "./random";

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

const AZURE_GROUPS: { name: string; displayName: string; parent: string | null }[] = [
  { name: "contoso", displayName: "Contoso", parent: null },
  { name: "platform", displayName: "Platform", parent: "contoso" },
  { name: "connectivity", displayName: "Connectivity", parent: "platform" },
  { name: "identity", displayName: "Identity", parent: "platform" },
  { name: "landing-zones", displayName: "Landing zones", parent: "contoso" },
  { name: "corp", displayName: "Corp", parent: "landing-zones" },
  { name: "online", displayName: "Online", parent: "landing-zones" },
  { name: "sandboxes", displayName: "Sandboxes", parent: "contoso" },
];

const AZURE_SUBSCRIPTIONS: { name: string; group: string; location: string }[] = [
  { name: "platform-connectivity", group: "connectivity", location: "westeurope" },
  { name: "platform-identity", group: "identity", location: "westeurope" },
  { name: "corp-prod", group: "corp", location: "westeurope" },
  { name: "corp-dev", group: "corp", location: "northeurope" },
  { name: "online-prod", group: "online", location: "eastus" },
  { name: "online-dev", group: "online", location: "eastus2" },
  { name: "sandbox-01", group: "sandboxes", location: "westus2" },
];

export const AZURE_HUMANS = ["alice", "bob", "carol", "dave"];
export const AZURE_APPS = ["ci-pipeline", "data-ingest"];
export const AZURE_DOMAIN = "contoso.example";

export function createSeedState(seed: number): SandboxState {
  const rnd = createRandom(seed);
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

  const tenantId = rnd.uuid();
  const managementGroups: AzureManagementGroup[] = [
    { name: tenantId, displayName: "Tenant Root Group", parentName: null },
    ...AZURE_GROUPS.map((g) => ({
      name: g.name,
      displayName: g.displayName,
      parentName: g.parent ?? tenantId,
    })),
  ];
  const subscriptions: AzureSubscription[] = AZURE_SUBSCRIPTIONS.map((s) => ({
    subscriptionId: rnd.uuid(),
    displayName: s.name,
    managementGroupName: s.group,
  }));
  const resourceGroups: AzureResourceGroup[] = [];
  const azureResources: AzureArmResource[] = [];
  subscriptions.forEach((sub, i) => {
    const location = AZURE_SUBSCRIPTIONS[i]!.location;
    for (const rg of [`rg-${sub.displayName}-app`, `rg-${sub.displayName}-data`]) {
      resourceGroups.push({ subscriptionId: sub.subscriptionId, name: rg, location });
    }
    azureResources.push(...seedAzureResources(rnd, sub, location));
  });

  const azurePrincipals: AzurePrincipal[] = [
    ...AZURE_HUMANS.map((h) => ({
      objectId: rnd.uuid(),
      displayName: h[0]!.toUpperCase() + h.slice(1),
      type: "User" as const,
      upn: `${h}@${AZURE_DOMAIN}`,
    })),
    ...AZURE_APPS.map((a) => ({
      objectId: rnd.uuid(),
      displayName: a,
      type: "ServicePrincipal" as const,
      clientId: rnd.uuid(),
      clientSecret: rnd.chars(34, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789~._-"),
    })),
  ];
  const connector = {
    clientId: rnd.uuid(),
    clientSecret: rnd.chars(40, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789~._-"),
    objectId: rnd.uuid(),
  };
  azurePrincipals.push({
    objectId: connector.objectId,
    displayName: "palisade-connector",
    type: "ServicePrincipal",
    clientId: connector.clientId,
    clientSecret: connector.clientSecret,
  });

  return {
    version: 1,
    seed,
    clockOffsetMs: 0,
    aws: {
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
      connector: {
        userArn: connectorUserArn,
        roleArn: connectorRoleArn,
        externalId,
        accessKeyId: `AKIA${rnd.chars(16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")}`,
        secretAccessKey: rnd.chars(40, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"),
      },
      trail: [],
    },
    azure: {
      tenantId,
      managementGroups,
      subscriptions,
      resourceGroups,
      resources: azureResources,
      principals: azurePrincipals,
      connector,
      policyDefinitions: [],
      policyAssignments: [],
      policyExemptions: [],
      activityLog: [],
      policyStates: [],
      tokenSigningKey: createHash("sha256")
        .update(`${seed}:${rnd.chars(32)}`)
        .digest("hex"),
    },
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

function seedAzureResources(rnd: Random, sub: AzureSubscription, location: string): AzureArmResource[] {
  const base = `/subscriptions/${sub.subscriptionId}/resourceGroups/rg-${sub.displayName}`;
  const short = sub.displayName.replace(/[^a-z0-9]/g, "").slice(0, 12);
  const app = `${base}-app/providers`;
  const data = `${base}-data/providers`;
  return [
    {
      id: `${data}/Microsoft.Storage/storageAccounts/st${short}${rnd.chars(4)}`,
      type: "Microsoft.Storage/storageAccounts",
      name: "",
      location,
      kind: "StorageV2",
      sku: { name: "Standard_LRS", tier: "Standard" },
      properties: {
        supportsHttpsTrafficOnly: true,
        minimumTlsVersion: "TLS1_2",
        allowBlobPublicAccess: false,
      },
    },
    {
      id: `${app}/Microsoft.Network/networkSecurityGroups/nsg-${sub.displayName}`,
      type: "Microsoft.Network/networkSecurityGroups",
      name: "",
      location,
      properties: { securityRules: [] },
    },
    {
      id: `${app}/Microsoft.Network/publicIPAddresses/pip-${sub.displayName}-lb`,
      type: "Microsoft.Network/publicIPAddresses",
      name: "",
      location,
      sku: { name: "Standard" },
      properties: { publicIPAllocationMethod: "Static" },
    },
    {
      id: `${app}/Microsoft.Network/networkInterfaces/nic-${sub.displayName}-vm1`,
      type: "Microsoft.Network/networkInterfaces",
      name: "",
      location,
      properties: {
        ipConfigurations: [{ name: "ipconfig1", properties: { privateIPAllocationMethod: "Dynamic" } }],
      },
    },
    {
      id: `${app}/Microsoft.Compute/virtualMachines/vm-${sub.displayName}-1`,
      type: "Microsoft.Compute/virtualMachines",
      name: "",
      location,
      properties: {
        hardwareProfile: { vmSize: "Standard_D2s_v5" },
        storageProfile: { osDisk: { osType: "Linux" } },
      },
    },
    {
      id: `${app}/Microsoft.Compute/disks/disk-${sub.displayName}-1-os`,
      type: "Microsoft.Compute/disks",
      name: "",
      location,
      sku: { name: "Premium_LRS" },
      properties: { diskSizeGB: 64, encryption: { type: "EncryptionAtRestWithPlatformKey" } },
    },
    {
      id: `${data}/Microsoft.Sql/servers/sql-${sub.displayName}`,
      type: "Microsoft.Sql/servers",
      name: "",
      location,
      properties: { minimalTlsVersion: "1.2", publicNetworkAccess: "Disabled" },
    },
    {
      id: `${data}/Microsoft.KeyVault/vaults/kv-${short}-${rnd.chars(4)}`,
      type: "Microsoft.KeyVault/vaults",
      name: "",
      location,
      properties: { enableSoftDelete: true, enablePurgeProtection: true, enableRbacAuthorization: true },
    },
  ].map((r) => ({ ...r, name: r.id.slice(r.id.lastIndexOf("/") + 1) }));
}

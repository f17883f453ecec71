import { tryAction } from "../enforce/try-action";
import { createRandom, type Random } from "../state/random";
import { AWS_APP_ROLES, AWS_HUMAN_ROLES, AWS_HUMAN_USERS } from "../state/seed-aws";
import { AZURE_APPS, AZURE_HUMANS } from "../state/seed-azure";
import type { StateStore } from "../state/store";

export interface ActivityOptions {
  actionsPerMinute: number;
  seed: number;
  logger?: { warn(message: string): void };
}

export type Scenario = (store: StateStore, rnd: Random) => Record<string, unknown>;

const hex = (rnd: Random, n: number) => rnd.chars(n, "0123456789abcdef");

function awsActor(store: StateStore, rnd: Random) {
  const members = store.state.aws.accounts.filter((a) => a.id !== store.state.aws.managementAccountId);
  const account = rnd.pick(members);
  const human = rnd.next() < 0.6;
  const principal = human
    ? rnd.next() < 0.5
      ? `user/${rnd.pick(AWS_HUMAN_USERS)}`
      : `role/${rnd.pick(AWS_HUMAN_ROLES)}`
    : `role/${rnd.pick(AWS_APP_ROLES)}`;
  const resources = store.state.aws.resources.filter((r) => r.accountId === account.id);
  const region = resources[0]?.region ?? "us-east-1";
  /** A call by this actor, in its account's region unless the call names another. */
  const call = (
    action: string,
    resource: string,
    more: { region?: string; context?: Record<string, unknown> } = {},
  ) => ({
    provider: "aws",
    account: account.id,
    principal,
    action,
    resource,
    region: more.region ?? region,
    ...(more.context ? { context: more.context } : {}),
  });
  return { account, resources, region, call };
}

function azureActor(store: StateStore, rnd: Random) {
  const sub = rnd.pick(store.state.azure.subscriptions);
  const principal = rnd.next() < 0.6 ? rnd.pick(AZURE_HUMANS) : rnd.pick(AZURE_APPS);
  const rg = `/subscriptions/${sub.subscriptionId}/resourceGroups/rg-${sub.displayName}-app`;
  /** This actor creating or updating a resource with the given properties. */
  const write = (resource: string, context: Record<string, unknown>) => ({
    provider: "azure",
    principal,
    action: "write",
    resource,
    context,
  });
  return { sub, rg, write };
}

/** Everyday calls, weighted towards compliant ones; a few break common guardrails on purpose. */
export const SCENARIOS: { weight: number; make: Scenario }[] = [
  {
    weight: 5,
    make: (s, rnd) => {
      const a = awsActor(s, rnd);
      return a.call(
        rnd.pick(["ec2:DescribeInstances", "s3:ListBucket", "rds:DescribeDBInstances", "kms:Decrypt"]),
        a.resources[rnd.int(a.resources.length)]?.arn ?? "*",
      );
    },
  },
  {
    weight: 3,
    make: (s, rnd) => {
      const a = awsActor(s, rnd);
      return a.call("ec2:RunInstances", `arn:aws:ec2:${a.region}:${a.account.id}:instance/*`, {
        context: {
          "ec2:MetadataHttpTokens": rnd.next() < 0.75 ? "required" : "optional",
          "ec2:InstanceType": rnd.pick(["t3.micro", "m6i.large"]),
        },
      });
    },
  },
  {
    weight: 2,
    make: (s, rnd) => {
      const a = awsActor(s, rnd);
      return a.call("s3:CreateBucket", `${a.account.name}-${hex(rnd, 6)}`);
    },
  },
  {
    weight: 1,
    make: (s, rnd) => {
      const a = awsActor(s, rnd);
      const bucket = a.resources.find((r) => r.type === "AWS::S3::Bucket");
      return a.call("s3:PutBucketAcl", bucket?.arn ?? "*", { context: { "s3:x-amz-acl": "public-read" } });
    },
  },
  {
    weight: 1,
    make: (s, rnd) => {
      const a = awsActor(s, rnd);
      const region = rnd.pick(["ap-southeast-2", "sa-east-1", "me-south-1"]);
      return a.call("ec2:RunInstances", `arn:aws:ec2:${region}:${a.account.id}:instance/*`, {
        region,
        context: { "aws:RequestedRegion": region, "ec2:MetadataHttpTokens": "required" },
      });
    },
  },
  {
    weight: 1,
    make: (s, rnd) => {
      const a = awsActor(s, rnd);
      const trail = a.resources.find((r) => r.type === "AWS::CloudTrail::Trail");
      return a.call(rnd.pick(["cloudtrail:StopLogging", "cloudtrail:StartLogging"]), trail?.arn ?? "*");
    },
  },
  {
    weight: 1,
    make: (s, rnd) => {
      const a = awsActor(s, rnd);
      return a.call("iam:CreateUser", `svc-${hex(rnd, 5)}`, { region: "us-east-1" });
    },
  },
  {
    weight: 3,
    make: (s, rnd) => {
      const z = azureActor(s, rnd);
      return z.write(`${z.rg}/providers/Microsoft.Compute/virtualMachines/vm-${hex(rnd, 5)}`, {
        "properties.hardwareProfile.vmSize": rnd.pick(["Standard_B2s", "Standard_D4s_v5"]),
      });
    },
  },
  {
    weight: 2,
    make: (s, rnd) => {
      const z = azureActor(s, rnd);
      const secure = rnd.next() < 0.7;
      return z.write(`${z.rg}/providers/Microsoft.Storage/storageAccounts/st${hex(rnd, 10)}`, {
        kind: "StorageV2",
        "sku.name": "Standard_LRS",
        "properties.supportsHttpsTrafficOnly": secure,
        "properties.minimumTlsVersion": secure ? "TLS1_2" : "TLS1_0",
        "properties.allowBlobPublicAccess": !secure,
      });
    },
  },
  {
    weight: 1,
    make: (s, rnd) => {
      const z = azureActor(s, rnd);
      return z.write(`${z.rg}/providers/Microsoft.Network/publicIPAddresses/pip-${hex(rnd, 5)}`, {
        "sku.name": "Standard",
        "properties.publicIPAllocationMethod": "Static",
      });
    },
  },
  {
    weight: 1,
    make: (s, rnd) => {
      const z = azureActor(s, rnd);
      return z.write(`${z.rg}/providers/Microsoft.KeyVault/vaults/kv-${hex(rnd, 8)}`, {
        location: rnd.pick(["westeurope", "brazilsouth", "eastus"]),
        "properties.enableSoftDelete": true,
        "properties.enablePurgeProtection": rnd.next() < 0.7,
      });
    },
  },
];

const TOTAL = SCENARIOS.reduce((n, s) => n + s.weight, 0);

export function nextScenario(store: StateStore, rnd: Random): Record<string, unknown> {
  let roll = rnd.next() * TOTAL;
  for (const s of SCENARIOS) {
    roll -= s.weight;
    if (roll < 0) return s.make(store, rnd);
  }
  return SCENARIOS[0]!.make(store, rnd);
}

export function startActivity(store: StateStore, options: ActivityOptions): { stop(): void } {
  // Seeded, yet offset by what already happened so a restart does not replay the same actions.
  const rnd = createRandom(
    options.seed + store.state.aws.trail.length + store.state.azure.activityLog.length,
  );
  const period = Math.max(50, Math.round(60_000 / Math.max(0.1, options.actionsPerMinute)));
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    tryAction(store, { ...nextScenario(store, rnd), userAgent: "console.amazonaws.com" })
      .catch((err: unknown) => options.logger?.warn(`sandbox activity failed: ${String(err)}`))
      .finally(() => {
        running = false;
      });
  }, period);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

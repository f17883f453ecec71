import { describe, expect, it } from "vitest";
import {
  type ActivityRecord,
  computeFindings,
  type FrameworkFact,
  type LiveDeployment,
  type PolicyInfo,
  type RuleInput,
  type ScopeNode,
} from "./recommendation-rules";

const nodes: ScopeNode[] = [
  { externalId: "r-root", parentExternalId: null, name: "Root", type: "AWS_ROOT", provider: "aws" },
  {
    externalId: "ou-prod",
    parentExternalId: "r-root",
    name: "Workloads-Prod",
    type: "AWS_OU",
    provider: "aws",
  },
  {
    externalId: "111111111111",
    parentExternalId: "ou-prod",
    name: "prod-app",
    type: "AWS_ACCOUNT",
    provider: "aws",
  },
  {
    externalId: "ou-dev",
    parentExternalId: "r-root",
    name: "Workloads-Dev",
    type: "AWS_OU",
    provider: "aws",
  },
  {
    externalId: "222222222222",
    parentExternalId: "ou-dev",
    name: "dev-app",
    type: "AWS_ACCOUNT",
    provider: "aws",
  },
  {
    externalId: "/providers/Microsoft.Management/managementGroups/mg-root",
    parentExternalId: null,
    name: "Tenant Root Group",
    type: "AZURE_MANAGEMENT_GROUP",
    provider: "azure",
  },
  {
    externalId: "/subscriptions/sub-1",
    parentExternalId: "/providers/Microsoft.Management/managementGroups/mg-root",
    name: "Dev subscription",
    type: "AZURE_SUBSCRIPTION",
    provider: "azure",
  },
];

const policies = new Map<string, PolicyInfo>(
  (
    [
      ["deny-s3-public-acls", "aws"],
      ["protect-cloudtrail", "aws"],
      ["deny-root-user-actions", "aws"],
      ["deny-regions-outside-allowlist", "aws"],
      ["require-ec2-imdsv2", "aws"],
      ["deny-iam-user-creation", "aws"],
      ["protect-s3-bucket-public-access-block", "aws"],
      ["storage-accounts-https-only", "azure"],
      ["storage-deny-blob-public-access", "azure"],
      ["key-vault-purge-protection", "azure"],
      ["deny-public-ip-addresses", "azure"],
      ["allowed-locations", "azure"],
    ] as const
  ).map(([slug, provider]) => [slug, { slug, provider, name: slug.replaceAll("-", " ") }]),
);

const at = new Date("2026-11-20T10:00:00Z");
const call = (action: string, more: Partial<ActivityRecord> = {}): ActivityRecord => ({
  provider: "aws",
  action,
  scopeId: "222222222222",
  principal: "arn:aws:iam::222222222222:user/alice",
  resource: "arn:aws:s3:::bucket-a",
  params: {},
  time: at,
  ...more,
});

const framework: FrameworkFact = {
  slug: "cis",
  name: "CIS AWS 3.0.0",
  clauses: [
    { id: "1.1", title: "Root user", definitionSlugs: ["deny-root-user-actions"] },
    { id: "3.1", title: "CloudTrail", definitionSlugs: ["protect-cloudtrail"] },
    { id: "9.9", title: "Not automatable", definitionSlugs: [] },
  ],
};

function input(change: Partial<RuleInput>): RuleInput {
  return {
    nodes,
    policies,
    deployments: [],
    activity: [],
    drift: [],
    waivers: [],
    frameworks: [],
    ...change,
  };
}

const live = (
  policySlug: string,
  scopeExternalId: string,
  mode: "ALERT" | "PREVENT" = "PREVENT",
): LiveDeployment => ({
  policySlug,
  scopeExternalId,
  mode,
});

/** Findings other than the production baseline ones, which every input with Workloads-Prod has. */
const keysOf = (i: RuleInput) =>
  computeFindings(i)
    .map((f) => f.key)
    .filter((k) => !k.startsWith("unguarded_scope:"))
    .sort();

describe("recommendation rules", () => {
  it.each<[string, Partial<RuleInput>, string[]]>([
    ["nothing happened: nothing to add", {}, []],
    [
      "a public ACL on a bucket",
      { activity: [call("s3:PutBucketAcl", { params: { "s3:x-amz-acl": "public-read" } })] },
      ["observed_activity:s3-public-acl"],
    ],
    [
      "a public ACL as CloudTrail records the header, a list",
      { activity: [call("s3:PutBucketAcl", { params: { bucketName: "b", "x-amz-acl": ["public-read"] } })] },
      ["observed_activity:s3-public-acl"],
    ],
    [
      "a private ACL is not risky",
      { activity: [call("s3:PutBucketAcl", { params: { "s3:x-amz-acl": "private" } })] },
      [],
    ],
    [
      "CloudTrail stopped",
      { activity: [call("cloudtrail:StopLogging")] },
      ["observed_activity:cloudtrail-stopped"],
    ],
    [
      "CloudTrail stopped where protect-cloudtrail already applies through an ancestor",
      { activity: [call("cloudtrail:StopLogging")], deployments: [live("protect-cloudtrail", "r-root")] },
      [],
    ],
    [
      "root creating access keys",
      { activity: [call("iam:CreateAccessKey", { principal: "arn:aws:iam::222222222222:root" })] },
      ["observed_activity:root-access-keys"],
    ],
    ["an alice creating access keys is not root", { activity: [call("iam:CreateAccessKey")] }, []],
    [
      "an instance with IMDSv1",
      { activity: [call("ec2:RunInstances", { params: { "ec2:MetadataHttpTokens": "optional" } })] },
      ["observed_activity:imdsv1-instances"],
    ],
    [
      "a call in an account Palisade does not know",
      { activity: [call("cloudtrail:StopLogging", { scopeId: "999999999999" })] },
      [],
    ],
    [
      "Azure storage written in a subscription",
      {
        activity: [
          call("Microsoft.Storage/storageAccounts/write", {
            provider: "azure",
            scopeId: "sub-1",
            resource: "st1",
          }),
        ],
      },
      ["observed_activity:azure-storage-written"],
    ],
    [
      "a framework with one covered clause: the other automatable clause is a gap",
      { frameworks: [framework], deployments: [live("deny-root-user-actions", "ou-prod")] },
      ["framework_gap:cis:3.1:aws"],
    ],
    ["a framework nobody follows", { frameworks: [framework] }, []],
    [
      "drift under an ALERT deployment",
      {
        drift: [{ policySlug: "require-ec2-imdsv2", scopeExternalId: "ou-dev", mode: "ALERT", resources: 4 }],
      },
      ["drift:require-ec2-imdsv2:ou-dev"],
    ],
    [
      "drift under PREVENT is already enforced",
      {
        drift: [
          { policySlug: "require-ec2-imdsv2", scopeExternalId: "ou-dev", mode: "PREVENT", resources: 4 },
        ],
      },
      [],
    ],
    [
      "three waivers of a policy on a scope",
      { waivers: [{ policySlug: "deny-iam-user-creation", scopeExternalId: "ou-dev", count: 3 }] },
      ["often_waived:deny-iam-user-creation:ou-dev"],
    ],
    [
      "two waivers are not often",
      { waivers: [{ policySlug: "deny-iam-user-creation", scopeExternalId: "ou-dev", count: 2 }] },
      [],
    ],
  ])("%s", (_name, change, expected) => {
    expect(keysOf(input(change))).toEqual(expected);
  });

  it("recommends the baseline guardrails on the highest production scope only, until deployed there", () => {
    const keys = (deployments: LiveDeployment[]) =>
      computeFindings(input({ deployments }))
        .filter((f) => f.kind === "unguarded_scope")
        .map((f) => f.key)
        .sort();
    expect(keys([])).toEqual([
      "unguarded_scope:production-regions:ou-prod",
      "unguarded_scope:production-root-user:ou-prod",
    ]);
    expect(keys([live("deny-root-user-actions", "ou-prod")])).toEqual([
      "unguarded_scope:production-regions:ou-prod",
    ]);
    expect(keys([live("deny-root-user-actions", "111111111111")])).toEqual([
      "unguarded_scope:production-regions:ou-prod",
      "unguarded_scope:production-root-user:ou-prod",
    ]);
  });

  it("describes what happened, where and by whom, and suggests ALERT on the scopes where it happened", () => {
    const [finding] = computeFindings(
      input({
        activity: [
          call("s3:PutBucketAcl", { params: { "s3:x-amz-acl": "public-read" } }),
          call("s3:PutBucketAcl", { params: { "s3:x-amz-acl": "public-read-write" }, resource: "b2" }),
          call("s3:PutBucketAcl", {
            params: { "s3:x-amz-acl": "public-read" },
            scopeId: "111111111111",
            principal: "arn:aws:iam::111111111111:role/Deployer",
          }),
        ],
        deployments: [
          live("deny-root-user-actions", "r-root"),
          live("deny-regions-outside-allowlist", "r-root"),
        ],
      }),
    );
    expect(finding).toMatchObject({
      kind: "observed_activity",
      policySlugs: ["deny-s3-public-acls"],
      provider: "aws",
      mode: "ALERT",
      affectedResourcesCount: 2,
      scopes: [
        { externalId: "222222222222", name: "dev-app", type: "AWS_ACCOUNT" },
        { externalId: "111111111111", name: "prod-app", type: "AWS_ACCOUNT" },
      ],
    });
    expect(finding?.description).toContain("3 calls gave an S3 bucket a public ACL");
    expect(finding?.description).toContain("`arn:aws:iam::111111111111:role/Deployer`");
    expect(finding?.score).toBeGreaterThan(85);
  });

  it("gives the same keys for the same facts, whatever their order", () => {
    const activity = [
      call("cloudtrail:StopLogging"),
      call("s3:PutBucketAcl", { params: { "s3:x-amz-acl": "public-read" } }),
      call("iam:CreateUser"),
    ];
    const first = computeFindings(input({ activity, frameworks: [framework] }));
    const second = computeFindings(input({ activity: [...activity].reverse(), frameworks: [framework] }));
    expect(second).toEqual(first);
    expect(new Set(first.map((f) => f.key)).size).toBe(first.length);
  });
});

import type { ActivityRecord, Provider, ScopeNode } from "./recommendation-types";

/** The tables of the recommendation rules: risky calls of the audit stream, baselines of production scopes. */

/** A risky call of the audit stream and the guardrails that would have stopped it. */
export interface ActivityRule {
  id: string;
  provider: Provider;
  policySlugs: string[];
  title: string;
  /** What the matching calls did, after a count: "3 calls made S3 buckets public". */
  happened: string;
  why: string;
  severity: number;
  matches(record: ActivityRecord): boolean;
}

/**
 * A request parameter in lower case. CloudTrail writes a header such as `x-amz-acl` as a list
 * (`"x-amz-acl": ["public-read"]`,
 * https://docs.aws.amazon.com/AmazonS3/latest/userguide/cloudtrail-logging-understanding-s3-entries.html).
 */
const lower = (value: unknown): string =>
  typeof value === "string" ? value.toLowerCase() : Array.isArray(value) ? value.map(lower).join(" ") : "";
const isRoot = (principal: string) => /:root$/.test(principal) || principal.toLowerCase() === "root";
const armWrite = (type: string) => (r: ActivityRecord) =>
  r.action.toLowerCase() === `${type.toLowerCase()}/write`;

export const ACTIVITY_RULES: ActivityRule[] = [
  {
    id: "s3-public-acl",
    provider: "aws",
    policySlugs: ["deny-s3-public-acls"],
    title: "Block public S3 bucket ACLs",
    happened: "gave an S3 bucket a public ACL",
    why: "A public ACL exposes a bucket's objects to anyone on the internet; it is the most common cause of S3 data leaks.",
    severity: 85,
    matches: (r) =>
      (r.action === "s3:PutBucketAcl" || r.action === "s3:PutObjectAcl") &&
      /public|authenticated-read/.test(lower(r.params["s3:x-amz-acl"] ?? r.params["x-amz-acl"])),
  },
  {
    id: "s3-public-access-block-removed",
    provider: "aws",
    policySlugs: ["protect-s3-bucket-public-access-block"],
    title: "Keep S3 Block Public Access on buckets",
    happened: "removed or changed a bucket's Block Public Access settings",
    why: "Block Public Access is the safety net behind every bucket policy and ACL; removing it lets one mistake publish data.",
    severity: 80,
    matches: (r) =>
      r.action === "s3:DeleteBucketPublicAccessBlock" || r.action === "s3:PutBucketPublicAccessBlock",
  },
  {
    id: "cloudtrail-stopped",
    provider: "aws",
    policySlugs: ["protect-cloudtrail"],
    title: "Protect CloudTrail from being stopped or deleted",
    happened: "stopped, deleted or changed a CloudTrail trail",
    why: "Stopping a trail blinds the audit stream: what happens next can no longer be traced, and attackers do it first.",
    severity: 90,
    matches: (r) =>
      r.action === "cloudtrail:StopLogging" ||
      r.action === "cloudtrail:DeleteTrail" ||
      r.action === "cloudtrail:UpdateTrail",
  },
  {
    id: "root-access-keys",
    provider: "aws",
    policySlugs: ["deny-root-user-actions"],
    title: "Stop the root user from creating access keys and acting",
    happened: "used the root user (access keys, API calls)",
    why: "Root credentials cannot be limited by IAM; long-lived root access keys are the keys to the whole account.",
    severity: 95,
    matches: (r) =>
      isRoot(r.principal) && (r.action === "iam:CreateAccessKey" || !/^(sts|signin):/.test(r.action)),
  },
  {
    id: "imdsv1-instances",
    provider: "aws",
    policySlugs: ["require-ec2-imdsv2"],
    title: "Require IMDSv2 on new EC2 instances",
    happened: "launched an EC2 instance with IMDSv1 allowed",
    why: "IMDSv1 answers any request from the instance, so a server-side request forgery can read its role's credentials.",
    severity: 60,
    matches: (r) =>
      r.action === "ec2:RunInstances" && lower(r.params["ec2:MetadataHttpTokens"]) === "optional",
  },
  {
    id: "iam-users-created",
    provider: "aws",
    policySlugs: ["deny-iam-user-creation"],
    title: "Stop creating long-lived IAM users",
    happened: "created an IAM user",
    why: "IAM users carry long-lived credentials; roles and single sign-on give people and workloads short-lived ones.",
    severity: 45,
    matches: (r) => r.action === "iam:CreateUser",
  },
  {
    id: "azure-storage-written",
    provider: "azure",
    policySlugs: ["storage-accounts-https-only", "storage-deny-blob-public-access"],
    title: "Require HTTPS and no public blob access on storage accounts",
    happened: "created or changed a storage account",
    why: "Storage accounts accept plain HTTP and public blob containers unless a guardrail says otherwise; the Activity Log does not show which of these writes did.",
    severity: 70,
    matches: armWrite("Microsoft.Storage/storageAccounts"),
  },
  {
    id: "azure-key-vault-written",
    provider: "azure",
    policySlugs: ["key-vault-purge-protection"],
    title: "Require purge protection on key vaults",
    happened: "created or changed a key vault",
    why: "Without purge protection a deleted vault and its keys can be destroyed for good before anyone notices.",
    severity: 55,
    matches: armWrite("Microsoft.KeyVault/vaults"),
  },
  {
    id: "azure-public-ip-written",
    provider: "azure",
    policySlugs: ["deny-public-ip-addresses"],
    title: "Control public IP addresses",
    happened: "created or changed a public IP address",
    why: "Every public IP is a door from the internet; workloads behind a load balancer or private endpoint need none.",
    severity: 50,
    matches: armWrite("Microsoft.Network/publicIPAddresses"),
  },
];

/** Baseline guardrails every production scope should have. */
export interface ScopeRule {
  id: string;
  provider: Provider;
  policySlug: string;
  /** Which scopes it applies to. */
  appliesTo(node: ScopeNode): boolean;
  why: string;
  severity: number;
}

const PRODUCTION = /\bprod(uction)?\b|-prod\b|prod-/i;
const isProduction = (node: ScopeNode) => PRODUCTION.test(node.name);
const AWS_CONTAINERS = new Set(["AWS_OU", "AWS_ACCOUNT"]);
const AZURE_CONTAINERS = new Set(["AZURE_MANAGEMENT_GROUP", "AZURE_SUBSCRIPTION"]);

export const SCOPE_RULES: ScopeRule[] = [
  {
    id: "production-root-user",
    provider: "aws",
    policySlug: "deny-root-user-actions",
    appliesTo: (n) => AWS_CONTAINERS.has(n.type) && isProduction(n),
    why: "Production accounts should not be operable with root credentials, which no IAM policy can limit.",
    severity: 75,
  },
  {
    id: "production-regions",
    provider: "aws",
    policySlug: "deny-regions-outside-allowlist",
    appliesTo: (n) => AWS_CONTAINERS.has(n.type) && isProduction(n),
    why: "Production workloads belong in the regions the team operates and monitors; resources started elsewhere go unnoticed. Choose the allowed regions when deploying.",
    severity: 65,
  },
  {
    id: "production-locations",
    provider: "azure",
    policySlug: "allowed-locations",
    appliesTo: (n) => AZURE_CONTAINERS.has(n.type) && isProduction(n),
    why: "Production resources belong in the regions the team operates and where its data may reside. Choose the allowed locations when deploying.",
    severity: 60,
  },
];

import { randomBytes } from "node:crypto";
import type { ContextValue } from "@palisade/policy-engine/evaluators/scp/evaluate-scp";
import { AwsError } from "../aws/common";
import { declarativeRefusal, runInstancesRequest } from "../aws/declarative-ec2";
import { effectiveDeclarative } from "../aws/declarative-effective";
import type { AwsAccount, AwsResource, AwsState } from "../state/model";
import type { StateStore } from "../state/store";
import { resolveCaller } from "./aws-caller";
import { globalContext, performAws } from "./aws-request";
import { TryInputError, type TryOutcome } from "./try-types";

export interface AwsTryInput {
  principal: string;
  action: string;
  resource: string;
  account?: string;
  region?: string;
  context?: Record<string, ContextValue>;
  userAgent?: string;
}

function findAccount(aws: AwsState, ref: string | undefined): AwsAccount | undefined {
  if (!ref) return undefined;
  return aws.accounts.find((a) => a.id === ref || a.name === ref);
}

/**
 * The one resource a reference names: its ARN, or its name in the account. A reference with a
 * wildcard ("*" above all) names no resource, so what earlier tries created never changes it.
 */
export function namedResource(aws: AwsState, account: AwsAccount, ref: string): AwsResource | undefined {
  if (/[*?]/.test(ref)) return undefined;
  return aws.resources.find((r) => r.arn === ref || (r.accountId === account.id && r.name === ref));
}

const ctxGet = (context: Record<string, ContextValue>, key: string): ContextValue | undefined => {
  const hit = Object.entries(context).find(([k]) => k.toLowerCase() === key.toLowerCase());
  return hit?.[1];
};

/** The resource change a successful call makes; calls not listed change nothing (reads, tagging...). */
export function applyAction(
  aws: AwsState,
  input: {
    action: string;
    resource: string;
    account: AwsAccount;
    region: string;
    context: Record<string, ContextValue>;
  },
): AwsResource | undefined {
  const { action, account, region, context } = input;
  const hex = (n: number) => randomBytes(n).toString("hex").slice(0, n);
  const existing = namedResource(aws, account, input.resource);
  const add = (r: Omit<AwsResource, "accountId" | "region">) => {
    // A create on a wildcard resource ("*") names nothing: user, role, bucket and database names
    // cannot hold "*" or "?", so the call is authorised and nothing is created.
    if (/[*?]/.test(r.name)) return undefined;
    const resource = { ...r, accountId: account.id, region };
    aws.resources.push(resource);
    return resource;
  };
  const addEc2 = (kind: string, prefix: string, type: string, properties: Record<string, unknown>) => {
    const id = `${prefix}-${hex(17)}`;
    return add({ arn: `arn:aws:ec2:${region}:${account.id}:${kind}/${id}`, type, name: id, properties });
  };
  const name = input.resource.startsWith("arn:") ? input.resource.split(/[:/]/).pop()! : input.resource;
  switch (action.toLowerCase()) {
    case "ec2:runinstances":
      return addEc2("instance", "i", "AWS::EC2::Instance", {
        instanceType: String(ctxGet(context, "ec2:InstanceType") ?? "t3.micro"),
        metadataHttpTokens: String(ctxGet(context, "ec2:MetadataHttpTokens") ?? "optional"),
        state: "running",
      });
    case "ec2:createvolume":
      return addEc2("volume", "vol", "AWS::EC2::Volume", {
        encrypted: String(ctxGet(context, "ec2:Encrypted") ?? "false") === "true",
      });
    case "ec2:createvpc":
      return addEc2("vpc", "vpc", "AWS::EC2::VPC", {});
    case "s3:createbucket":
      return add({
        arn: `arn:aws:s3:::${name}`,
        type: "AWS::S3::Bucket",
        name,
        properties: { acl: String(ctxGet(context, "s3:x-amz-acl") ?? "private") },
      });
    case "s3:putbucketacl":
    case "s3:putbucketpublicaccessblock":
      if (existing)
        existing.properties.acl = String(
          ctxGet(context, "s3:x-amz-acl") ?? existing.properties.acl ?? "private",
        );
      return existing;
    case "rds:createdbinstance":
      return add({
        arn: `arn:aws:rds:${region}:${account.id}:db:${name}`,
        type: "AWS::RDS::DBInstance",
        name,
        properties: {
          storageEncrypted: String(ctxGet(context, "rds:StorageEncrypted") ?? "false") === "true",
        },
      });
    case "kms:createkey": {
      const id = randomBytes(16)
        .toString("hex")
        .replace(/(.{8})(.{4})(.{4})(.{4})(.{12})/, "$1-$2-$3-$4-$5");
      return add({
        arn: `arn:aws:kms:${region}:${account.id}:key/${id}`,
        type: "AWS::KMS::Key",
        name: id,
        properties: { keyState: "Enabled" },
      });
    }
    case "kms:schedulekeydeletion":
      if (existing) existing.properties.keyState = "PendingDeletion";
      return existing;
    case "iam:createrole":
    case "iam:createuser": {
      const kind = action.toLowerCase() === "iam:createrole" ? "role" : "user";
      return add({
        arn: `arn:aws:iam::${account.id}:${kind}/${name}`,
        type: kind === "role" ? "AWS::IAM::Role" : "AWS::IAM::User",
        name,
        properties: {},
      });
    }
    case "cloudtrail:stoplogging":
      if (existing) existing.properties.isLogging = false;
      return existing;
    case "cloudtrail:startlogging":
      if (existing) existing.properties.isLogging = true;
      return existing;
    case "ec2:terminateinstances":
    case "cloudtrail:deletetrail":
    case "s3:deletebucket":
    case "rds:deletedbinstance":
    case "ec2:deletevolume":
      if (existing) aws.resources = aws.resources.filter((r) => r !== existing);
      return existing;
  }
  return existing;
}

/** The operations whose effect the sandbox applies, as their services spell them. */
const OPERATIONS = [
  "ec2:RunInstances",
  "ec2:CreateVolume",
  "ec2:CreateVpc",
  "ec2:TerminateInstances",
  "ec2:DeleteVolume",
  "s3:CreateBucket",
  "s3:PutBucketAcl",
  "s3:PutBucketPublicAccessBlock",
  "s3:DeleteBucket",
  "rds:CreateDBInstance",
  "rds:DeleteDBInstance",
  "kms:CreateKey",
  "kms:ScheduleKeyDeletion",
  "iam:CreateRole",
  "iam:CreateUser",
  "cloudtrail:StopLogging",
  "cloudtrail:StartLogging",
  "cloudtrail:DeleteTrail",
];
const OPERATION_BY_LOWER = new Map(OPERATIONS.map((a) => [a.toLowerCase(), a]));

/**
 * An action as its service spells it. IAM reads action names case-insensitively
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_action.html:
 * "iam:ListAccessKeys" is the same as "IAM:listaccesskeys"); the service prefix is lower case.
 */
function canonicalAction(action: string): string {
  const known = OPERATION_BY_LOWER.get(action.toLowerCase());
  if (known) return known;
  const [service = "", operation = ""] = action.split(":");
  return `${service.toLowerCase()}:${operation}`;
}

/** A launch as `/sandbox/try` states it: the metadata options and the image its condition keys name. */
function launchRequest(aws: AwsState, accountId: string, context: Record<string, ContextValue>) {
  const stated = (key: string) => {
    const v = ctxGet(context, key);
    return v === undefined ? null : String(v);
  };
  const metadata = {
    httpTokens: stated("ec2:MetadataHttpTokens"),
    httpEndpoint: null,
    hopLimit: stated("ec2:MetadataHttpPutResponseHopLimit"),
    instanceMetadataTags: null,
  };
  const image = ctxGet(context, "ec2:ImageID");
  const imageArn = Array.isArray(image) ? image[0] : image;
  return runInstancesRequest(
    aws,
    accountId,
    metadata,
    imageArn === undefined ? undefined : String(imageArn).split("/").pop(),
  );
}

export function tryAws(store: StateStore, given: AwsTryInput): TryOutcome {
  const aws = store.state.aws;
  if (!/^[a-z0-9-]+:[a-z0-9*]+$/i.test(given.action))
    throw new TryInputError(`Action '${given.action}' must look like service:Operation.`);
  const input = { ...given, action: canonicalAction(given.action) };
  const resourceArnAccount = /^arn:aws:[^:]+:[^:]*:(\d{12}):/.exec(input.resource)?.[1];
  const principalArnAccount = /^arn:aws:(?:iam|sts)::(\d{12}):/.exec(input.principal)?.[1];
  // A principal outside the organisation calls on a resource of the account named or in the ARN.
  const callerInOrg = aws.accounts.some((a) => a.id === principalArnAccount);
  const account = findAccount(
    aws,
    input.account ?? (callerInOrg ? principalArnAccount : undefined) ?? resourceArnAccount,
  );
  if (!account)
    throw new TryInputError(
      `Unknown account '${input.account ?? ""}'. Pass --account with an account id or name.`,
    );
  const principal = resolveCaller(aws, input.principal, account);
  if (!principal)
    throw new TryInputError(
      `Unknown principal '${input.principal}' in account ${account.id} (${account.name}).`,
    );
  const known = namedResource(aws, account, input.resource);
  const resource = known?.arn ?? input.resource;
  const region = String(
    (input.context && ctxGet(input.context, "aws:RequestedRegion")) ??
      input.region ??
      known?.region ??
      (resource.split(":")[3] || "us-east-1"),
  );
  let outcome: ReturnType<typeof performAws<AwsResource | undefined>>;
  try {
    outcome = performAws(
      store,
      {
        caller: principal,
        account,
        action: input.action,
        resources: [{ arn: resource }],
        region,
        context: input.context ?? {},
        userAgent: input.userAgent,
      },
      () => {
        const context = { ...globalContext(store, principal, region), ...(input.context ?? {}) };
        // The account's declarative policy governs the call as it does on EC2's own endpoint: a
        // launch's metadata options and image (`ec2:ImageID`), and the settings the policy sets.
        // Public sharing of AMIs and snapshots is judged on EC2's endpoint only: no IAM condition
        // key says a request makes an image or snapshot public.
        const refused = declarativeRefusal(
          effectiveDeclarative(aws, account.id),
          input.action === "ec2:RunInstances"
            ? launchRequest(aws, account.id, context)
            : { action: input.action, parameters: {}, account: account.id },
        );
        if (refused) throw refused;
        const changed = applyAction(aws, { action: input.action, resource, account, region, context });
        return { result: changed, changed };
      },
    );
  } catch (err) {
    // A refusal by the service itself (a declarative policy), recorded by performAws.
    if (!(err instanceof AwsError)) throw err;
    return {
      httpStatus: err.status,
      allowed: false,
      body: { provider: "aws", allowed: false, error: { Code: err.code, Message: err.message } },
    };
  }
  if (!outcome.allowed) {
    const { denial } = outcome;
    return {
      httpStatus: 403,
      allowed: false,
      body: {
        provider: "aws",
        allowed: false,
        error: {
          ...(denial.jsonType ? { __type: denial.jsonType } : {}),
          Code: denial.code,
          Message: denial.message,
        },
        policy: outcome.policy,
        eventId: outcome.eventId,
      },
    };
  }
  return {
    httpStatus: 200,
    allowed: true,
    body: {
      provider: "aws",
      allowed: true,
      principal: principal.arn,
      action: input.action,
      resource: outcome.result?.arn ?? resource,
      eventId: outcome.eventId,
    },
  };
}

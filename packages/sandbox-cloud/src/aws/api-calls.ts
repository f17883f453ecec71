import { randomUUID } from "node:crypto";
import type { AwsResource } from "../state/model";

type Context = Record<string, unknown>;

/** What CloudTrail writes for one API call: its event, Region, and the API's own request shape. */
export interface ApiCall {
  eventName: string;
  eventSource: string;
  region: string;
  readOnly: boolean;
  /** Data events (S3 object-level calls) are neither in event history nor in a trail without data event selectors. */
  managementEvent: boolean;
  requestParameters: Record<string, unknown> | null;
  resources?: { ARN: string; accountId: string; type: string }[];
}

export interface ApiCallInput {
  /** The IAM action, `service:Operation`. */
  action: string;
  /** The resource ARN or name the call names, `*` for none. */
  resource: string;
  accountId: string;
  region: string;
  /** The request's IAM condition keys: read to fill the API's own parameters, never copied into them. */
  context: Context;
}

const get = (context: Context, key: string): unknown =>
  Object.entries(context).find(([k]) => k.toLowerCase() === key.toLowerCase())?.[1];
const text = (context: Context, key: string): string | undefined => {
  const v = get(context, key);
  return v === undefined ? undefined : String(Array.isArray(v) ? v[0] : v);
};
const flag = (context: Context, key: string): boolean | undefined => {
  const v = text(context, key);
  return v === undefined ? undefined : v === "true";
};
const defined = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
const lastPart = (resource: string) =>
  resource.startsWith("arn:") ? resource.split(/[:/]/).pop()! : resource;

/** Services whose events CloudTrail records in US East (N. Virginia), whatever endpoint Region the call named. */
const GLOBAL_SERVICES = new Set([
  "iam",
  "sts",
  "organizations",
  "account",
  "route53",
  "cloudfront",
  "support",
  "billing",
  "aws-portal",
  "ce",
]);

/** IAM actions whose API name differs from the action's. */
const EVENT_NAMES: Record<string, string> = {
  "s3:ListBucket": "ListObjects",
  "s3:ListAllMyBuckets": "ListBuckets",
};

/** S3 object-level calls: data events (https://docs.aws.amazon.com/awscloudtrail/latest/userguide/logging-data-events-with-cloudtrail.html). */
const S3_DATA_EVENTS =
  /^s3:(GetObject|PutObject|DeleteObject|ListBucket$|RestoreObject|AbortMultipartUpload|ListMultipartUploadParts|GetObjectAcl|PutObjectAcl|GetObjectTagging|PutObjectTagging|DeleteObjectTagging)/;

const READ_ONLY = /^(Describe|List|Get|Head|Lookup|Search|Decrypt|Verify|Select|Scan|Query|BatchGet)/;

function s3Host(bucket: string, region: string) {
  return `${bucket}.s3.${region}.amazonaws.com`;
}

const ALL_BLOCKED = {
  xmlns: "http://s3.amazonaws.com/doc/2006-03-01/",
  RestrictPublicBuckets: true,
  BlockPublicPolicy: true,
  BlockPublicAcls: true,
  IgnorePublicAcls: true,
};

/**
 * `requestParameters` as each API writes them in CloudTrail (the shapes of the record samples in
 * each service's "Logging API calls with AWS CloudTrail" page and the services' API references);
 * null for an API the sandbox does not model, as for an API without parameters.
 */
function requestParametersOf(input: ApiCallInput, eventName: string): Record<string, unknown> | null {
  const { context, region, accountId } = input;
  const name = lastPart(input.resource);
  const instance = (id: string) => ({ instancesSet: { items: [{ instanceId: id }] } });
  switch (`${input.action.split(":")[0]}:${eventName}`) {
    case "ec2:RunInstances": {
      const size = text(context, "ec2:VolumeSize");
      const tokens = text(context, "ec2:MetadataHttpTokens");
      const hops = text(context, "ec2:MetadataHttpPutResponseHopLimit");
      const owner = text(context, "aws:RequestTag/Owner");
      return defined({
        instancesSet: {
          items: [
            {
              imageId: text(context, "ec2:ImageID")?.split("/").pop() ?? "ami-0c02fb55956c7d316",
              minCount: 1,
              maxCount: 1,
            },
          ],
        },
        instanceType: text(context, "ec2:InstanceType") ?? "t3.micro",
        blockDeviceMapping: size
          ? {
              items: [
                {
                  deviceName: "/dev/xvda",
                  ebs: defined({ volumeSize: Number(size), encrypted: flag(context, "ec2:Encrypted") }),
                },
              ],
            }
          : {},
        tagSpecificationSet: owner
          ? { items: [{ resourceType: "instance", tags: [{ key: "Owner", value: owner }] }] }
          : undefined,
        monitoring: { enabled: false },
        disableApiTermination: false,
        disableApiStop: false,
        clientToken: randomUUID(),
        metadataOptions:
          tokens || hops
            ? defined({ httpTokens: tokens, httpPutResponseHopLimit: hops ? Number(hops) : undefined })
            : undefined,
      });
    }
    case "ec2:CreateVolume":
      return defined({
        size: text(context, "ec2:VolumeSize") ?? "8",
        zone: `${region}a`,
        volumeType: text(context, "ec2:VolumeType") ?? "gp3",
        encrypted: flag(context, "ec2:Encrypted") ?? false,
      });
    case "ec2:CreateVpc":
      return { cidrBlock: "10.0.0.0/16", amazonProvidedIpv6CidrBlock: false, instanceTenancy: "default" };
    case "ec2:DescribeInstances":
      return { instancesSet: {}, filterSet: {} };
    case "ec2:TerminateInstances":
    case "ec2:StopInstances":
    case "ec2:StartInstances":
      return instance(name);
    case "ec2:DeleteVolume":
      return { volumeId: name };
    case "ec2:ModifyInstanceMetadataOptions":
      return {
        ModifyInstanceMetadataOptionsRequest: defined({
          InstanceId: name,
          HttpTokens: text(context, "ec2:MetadataHttpTokens"),
        }),
      };
    case "s3:CreateBucket":
      return defined({
        CreateBucketConfiguration:
          region === "us-east-1" ? undefined : { LocationConstraint: region, xmlns: ALL_BLOCKED.xmlns },
        bucketName: name,
        Host: s3Host(name, region),
        "x-amz-acl": text(context, "s3:x-amz-acl") ? [text(context, "s3:x-amz-acl")] : undefined,
      });
    case "s3:PutBucketAcl":
      return defined({
        bucketName: name,
        Host: s3Host(name, region),
        acl: [""],
        "x-amz-acl": text(context, "s3:x-amz-acl") ? [text(context, "s3:x-amz-acl")] : undefined,
      });
    case "s3:PutBucketPublicAccessBlock":
      return {
        publicAccessBlock: [""],
        bucketName: name,
        Host: s3Host(name, region),
        PublicAccessBlockConfiguration: ALL_BLOCKED,
      };
    case "s3:PutAccountPublicAccessBlock":
      return {
        PublicAccessBlockConfiguration: ALL_BLOCKED,
        Host: `${accountId}.s3-control.${region}.amazonaws.com`,
      };
    case "s3:GetAccountPublicAccessBlock":
      return { Host: `${accountId}.s3-control.${region}.amazonaws.com` };
    case "s3:PutBucketPolicy":
      return { bucketName: name, Host: s3Host(name, region), policy: [""] };
    case "s3:DeleteBucket":
      return { bucketName: name, Host: s3Host(name, region) };
    case "s3:ListBuckets":
      return { Host: `s3.${region}.amazonaws.com` };
    case "iam:CreateUser":
    case "iam:DeleteUser":
    case "iam:CreateAccessKey":
    case "iam:CreateLoginProfile":
      return { userName: name };
    case "iam:CreateRole":
      return {
        roleName: name,
        assumeRolePolicyDocument: JSON.stringify({ Version: "2012-10-17", Statement: [] }),
      };
    case "kms:CreateKey":
      return {
        keySpec: "SYMMETRIC_DEFAULT",
        keyUsage: "ENCRYPT_DECRYPT",
        origin: "AWS_KMS",
        bypassPolicyLockoutSafetyCheck: false,
        multiRegion: false,
      };
    case "kms:ScheduleKeyDeletion":
      return { keyId: input.resource, pendingWindowInDays: 30 };
    case "kms:Decrypt":
      return { encryptionAlgorithm: "SYMMETRIC_DEFAULT" };
    case "rds:CreateDBInstance":
      return defined({
        dBInstanceIdentifier: name,
        dBInstanceClass: "db.t3.micro",
        engine: "postgres",
        allocatedStorage: 20,
        masterUsername: "postgres",
        storageEncrypted: flag(context, "rds:StorageEncrypted") ?? false,
        publiclyAccessible: false,
      });
    case "rds:DeleteDBInstance":
      return { dBInstanceIdentifier: name, skipFinalSnapshot: true };
    case "cloudtrail:StopLogging":
    case "cloudtrail:StartLogging":
    case "cloudtrail:DeleteTrail":
    case "cloudtrail:UpdateTrail":
      return { name: input.resource };
  }
  // IAM's role calls all name the role.
  if (input.action.startsWith("iam:") && /Role/.test(eventName) && name !== "*") return { roleName: name };
  return null;
}

/** CloudTrail lists resources for a few services only: S3 buckets, KMS keys, STS roles. */
function resourcesOf(input: ApiCallInput, eventName: string) {
  const service = input.action.split(":")[0];
  if (input.resource === "*" || eventName === "ListBuckets") return undefined;
  if (service === "s3") {
    const bucket = input.resource.replace(/^arn:aws:s3:::/, "").split("/")[0];
    return [{ ARN: `arn:aws:s3:::${bucket}`, accountId: input.accountId, type: "AWS::S3::Bucket" }];
  }
  if (service === "kms" && input.resource.startsWith("arn:aws:kms:")) {
    return [{ ARN: input.resource, accountId: input.accountId, type: "AWS::KMS::Key" }];
  }
  return undefined;
}

export function apiCallOf(input: ApiCallInput): ApiCall {
  const [service = "", operation = ""] = input.action.split(":");
  const eventName = EVENT_NAMES[input.action] ?? operation;
  return {
    eventName,
    eventSource: `${service}.amazonaws.com`,
    region: GLOBAL_SERVICES.has(service) ? "us-east-1" : input.region,
    readOnly: READ_ONLY.test(eventName),
    managementEvent: !S3_DATA_EVENTS.test(input.action),
    requestParameters: requestParametersOf(input, eventName),
    resources: resourcesOf(input, eventName),
  };
}

/** `responseElements` of a call that created something, in the API's shape; null for the others. */
export function responseElementsOf(
  eventName: string,
  created: AwsResource | undefined,
): Record<string, unknown> | null {
  if (!created) return null;
  switch (eventName) {
    case "RunInstances":
      return {
        ownerId: created.accountId,
        instancesSet: {
          items: [
            {
              instanceId: created.name,
              instanceType: created.properties.instanceType,
              instanceState: { code: 0, name: "pending" },
            },
          ],
        },
      };
    case "CreateVolume":
      return { volumeId: created.name, encrypted: created.properties.encrypted, status: "creating" };
    case "CreateVpc":
      return { vpc: { vpcId: created.name, state: "pending", cidrBlock: "10.0.0.0/16" } };
    case "CreateUser":
      return { user: { path: "/", userName: created.name, arn: created.arn } };
    case "CreateRole":
      return { role: { path: "/", roleName: created.name, arn: created.arn } };
    case "CreateKey":
      return { keyMetadata: { keyId: created.name, arn: created.arn, keyState: "Enabled" } };
    case "CreateDBInstance":
      return { dBInstanceIdentifier: created.name, dBInstanceArn: created.arn, dBInstanceStatus: "creating" };
  }
  return null;
}

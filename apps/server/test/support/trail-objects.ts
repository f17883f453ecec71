import { randomBytes, randomUUID } from "node:crypto";
import { gzipSync } from "node:zlib";
import { CreateBucketCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";

/**
 * Organisation-trail log files written as AWS documents them
 * (https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-log-file-examples.html),
 * not as Palisade's sandbox writes them.
 */

export const ORG_ID = "o-a1b2c3d4e5";
export const TEST_KEYS = {
  accessKeyId: "AKIAIOSFODNN7EXAMPLE",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
};

/** The key of a log file delivered at `at`, under the documented layout. */
export function logFileKey(keyPrefix: string, account: string, region: string, at: Date): string {
  const iso = at.toISOString();
  const day = iso.slice(0, 10).replaceAll("-", "/");
  const stamp = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}T${iso.slice(11, 13)}${iso.slice(14, 16)}Z`;
  const unique = randomBytes(12).toString("base64url").replace(/[-_]/g, "x").slice(0, 16);
  const root = keyPrefix ? `${keyPrefix}/AWSLogs/` : "AWSLogs/";
  return `${root}${ORG_ID}/${account}/CloudTrail/${region}/${day}/${account}_CloudTrail_${region}_${stamp}_${unique}.json.gz`;
}

/** A management event of an assumed role in `account`, as CloudTrail records it. */
export function cloudTrailRecord(input: {
  account: string;
  region: string;
  time: Date;
  eventSource?: string;
  eventName?: string;
  errorCode?: string;
  errorMessage?: string;
  requestParameters?: Record<string, unknown> | null;
}): Record<string, unknown> {
  const role = `arn:aws:iam::${input.account}:role/Deployer`;
  return {
    eventVersion: "1.09",
    userIdentity: {
      type: "AssumedRole",
      principalId: `AROAEXAMPLE${input.account.slice(-6)}:deploy-session`,
      arn: `arn:aws:sts::${input.account}:assumed-role/Deployer/deploy-session`,
      accountId: input.account,
      accessKeyId: "ASIAEXAMPLEKEY",
      sessionContext: {
        sessionIssuer: {
          type: "Role",
          principalId: "AROAEXAMPLE",
          arn: role,
          accountId: input.account,
          userName: "Deployer",
        },
        attributes: { creationDate: input.time.toISOString(), mfaAuthenticated: "false" },
      },
    },
    eventTime: input.time.toISOString().replace(/\.\d{3}Z$/, "Z"),
    eventSource: input.eventSource ?? "ec2.amazonaws.com",
    eventName: input.eventName ?? "DescribeInstances",
    awsRegion: input.region,
    sourceIPAddress: "203.0.113.10",
    userAgent: "aws-cli/2.15.0",
    ...(input.errorCode ? { errorCode: input.errorCode, errorMessage: input.errorMessage ?? "" } : {}),
    requestParameters: input.requestParameters ?? null,
    responseElements: null,
    requestID: randomUUID(),
    eventID: randomUUID(),
    readOnly: false,
    eventType: "AwsApiCall",
    managementEvent: true,
    recipientAccountId: input.account,
    eventCategory: "Management",
  };
}

export function gzipLogFile(records: Record<string, unknown>[]): Buffer {
  return gzipSync(JSON.stringify({ Records: records }));
}

export function testS3(endpoint: string, region = "us-east-1"): S3Client {
  return new S3Client({ endpoint, region, forcePathStyle: true, credentials: TEST_KEYS });
}

export async function createTrailBucketIn(s3: S3Client, bucket: string): Promise<void> {
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
}

export async function putObject(s3: S3Client, bucket: string, key: string, body: Uint8Array): Promise<void> {
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
}

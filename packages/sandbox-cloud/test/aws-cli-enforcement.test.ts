import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signRequest } from "../src/aws/sigv4";
import {
  assumeRoleWithCli,
  awsCliPresent,
  type CliCredentials,
  developerSession,
  refusal,
  runAws,
} from "./aws-cli";
import { type Harness, startHarness } from "./sandbox-harness";

// The AWS CLI v1 (botocore) calls S3 (REST/XML), EC2 and IAM (Query) on the sandbox as member-account
// principals; an SCP written by the management account through `aws organizations` denies them with
// each service's documented error:
// - S3: https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html and
//   https://docs.aws.amazon.com/AmazonS3/latest/userguide/troubleshoot-403-errors.html (AccessDenied, 403,
//   naming the service control policy),
// - EC2: https://docs.aws.amazon.com/AWSEC2/latest/APIReference/errors-overview.html (UnauthorizedOperation
//   with an encoded authorization failure message),
// - IAM: https://docs.aws.amazon.com/IAM/latest/APIReference/CommonErrors.html (AccessDenied),
// each recorded in CloudTrail with its errorCode
// (https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-event-reference-record-contents.html).

const present = awsCliPresent();

let h: Harness;
let management: CliCredentials;
let alice: CliCredentials & { accountId: string };
let developer: CliCredentials;
let admin: CliCredentials;
const bucket = `cli-guarded-${Date.now().toString(36)}`;
let file: string;

const cli = (region: string, credentials: CliCredentials, args: string[]) =>
  runAws(h.cloud.url, region, credentials, args);

async function accountBlock(who: CliCredentials & { sessionToken?: string }, method: "PUT" | "GET") {
  const body =
    method === "PUT"
      ? `<PublicAccessBlockConfiguration xmlns="http://awss3control.amazonaws.com/doc/2018-08-20/"><BlockPublicAcls>true</BlockPublicAcls><IgnorePublicAcls>true</IgnorePublicAcls><BlockPublicPolicy>true</BlockPublicPolicy><RestrictPublicBuckets>true</RestrictPublicBuckets></PublicAccessBlockConfiguration>`
      : "";
  const url = new URL("/v20180820/configuration/publicAccessBlock", h.cloud.url);
  const req = {
    method,
    path: url.pathname,
    query: new URLSearchParams(),
    headers: {
      host: url.host,
      "x-amz-account-id": alice.accountId,
      "x-amz-content-sha256": createHash("sha256").update(body).digest("hex"),
      ...(who.sessionToken ? { "x-amz-security-token": who.sessionToken } : {}),
    } as Record<string, string>,
    body: Buffer.from(body),
  };
  signRequest(req, who, "us-east-1", "s3");
  const res = await fetch(url, { method, headers: req.headers, ...(body ? { body } : {}) });
  return { status: res.status, body: await res.text() };
}

const blockOff =
  "BlockPublicAcls=false,IgnorePublicAcls=false,BlockPublicPolicy=false,RestrictPublicBuckets=false";
const putBlock = (who: CliCredentials) =>
  cli("us-east-1", who, [
    "s3api",
    "put-public-access-block",
    "--bucket",
    bucket,
    "--public-access-block-configuration",
    blockOff,
  ]);
const runImdsV1 = (who: CliCredentials) =>
  cli("eu-west-1", who, ["ec2", "run-instances", "--image-id", "ami-0abcdef1234567890", "--count", "1"]);
const createUser = (who: CliCredentials, name: string) =>
  cli("us-east-1", who, ["iam", "create-user", "--user-name", name]);

describe.skipIf(!present)("guardrails on the AWS CLI's S3, EC2 and IAM calls", () => {
  beforeAll(async () => {
    h = await startHarness();
    file = join(mkdtempSync(join(tmpdir(), "palisade-cli-")), "object.txt");
    writeFileSync(file, "hello");
    management = { accessKeyId: h.cloud.aws.accessKeyId, secretAccessKey: h.cloud.aws.secretAccessKey };
    ({ alice, developer } = await developerSession(h.cloud.url, "payments-dev"));
    admin = await assumeRoleWithCli(
      h.cloud.url,
      alice,
      `arn:aws:iam::${alice.accountId}:role/Admin`,
      "alice",
    );
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
    if (file) rmSync(dirname(file), { recursive: true, force: true });
  });

  it("serves each call with the service's documented answer while no guardrail applies", async () => {
    const created = await cli("us-east-1", developer, ["s3api", "create-bucket", "--bucket", bucket]);
    expect(created.stderr).toBe("");
    expect(created.json()).toEqual({ Location: `/${bucket}` });
    expect((await putBlock(developer)).code).toBe(0);
    const read = await cli("us-east-1", developer, ["s3api", "get-public-access-block", "--bucket", bucket]);
    expect(read.json()).toEqual({
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: false,
        IgnorePublicAcls: false,
        BlockPublicPolicy: false,
        RestrictPublicBuckets: false,
      },
    });

    const put = await cli("us-east-1", developer, [
      "s3api",
      "put-object",
      "--bucket",
      bucket,
      "--key",
      "a.txt",
      "--body",
      file,
    ]);
    expect(put.stderr).toBe("");
    const got = await cli("us-east-1", developer, [
      "s3api",
      "head-object",
      "--bucket",
      bucket,
      "--key",
      "a.txt",
    ]);
    expect(got.json<{ ContentLength: number }>().ContentLength).toBe(5);

    const launched = await runImdsV1(developer);
    expect(launched.stderr).toBe("");
    const instance = launched.json<{
      OwnerId: string;
      Instances: { InstanceId: string; MetadataOptions: unknown }[];
    }>();
    expect(instance.OwnerId).toBe(alice.accountId);
    expect((instance.Instances[0] as { State?: unknown })?.State).toEqual({ Code: 0, Name: "pending" });
    expect(instance.Instances[0]?.MetadataOptions).toMatchObject({
      HttpTokens: "optional",
      HttpPutResponseHopLimit: 1,
    });
    const described = await cli("eu-west-1", developer, [
      "ec2",
      "describe-instances",
      "--instance-ids",
      instance.Instances[0]!.InstanceId,
    ]);
    expect(described.stderr).toBe("");
    // Launched as pending; described afterwards as running.
    expect(
      described.json<{ Reservations: { Instances: unknown[] }[] }>().Reservations[0]?.Instances[0],
    ).toMatchObject({
      InstanceId: instance.Instances[0]!.InstanceId,
      State: { Name: "running", Code: 16 },
      MetadataOptions: { HttpTokens: "optional" },
    });

    const user = await createUser(developer, "cli-integration");
    expect(user.stderr).toBe("");
    expect(user.json<{ User: { Arn: string; UserId: string } }>().User).toMatchObject({
      Arn: `arn:aws:iam::${alice.accountId}:user/cli-integration`,
      UserId: expect.stringMatching(/^AIDA[A-Z2-7]{17}$/),
    });
    expect(refusal(await createUser(developer, "CLI-Integration")).code).toBe("EntityAlreadyExists");
    const key = await cli("us-east-1", developer, [
      "iam",
      "create-access-key",
      "--user-name",
      "cli-integration",
    ]);
    const k = key.json<{ AccessKey: { AccessKeyId: string; SecretAccessKey: string; Status: string } }>()
      .AccessKey;
    expect(k.Status).toBe("Active");
    const as = await cli("us-east-1", { accessKeyId: k.AccessKeyId, secretAccessKey: k.SecretAccessKey }, [
      "sts",
      "get-caller-identity",
    ]);
    expect(as.json<{ Arn: string }>().Arn).toBe(`arn:aws:iam::${alice.accountId}:user/cli-integration`);
  }, 120_000);

  it("denies them under an SCP with each service's error, spares the exempt role, and records the denials", async () => {
    const document = JSON.stringify({
      Version: "2012-10-17",
      Statement: [
        {
          Effect: "Deny",
          Action: ["s3:PutBucketPublicAccessBlock", "s3:PutAccountPublicAccessBlock", "iam:CreateUser"],
          Resource: "*",
          Condition: { ArnNotLike: { "aws:PrincipalArn": "arn:aws:iam::*:role/Admin" } },
        },
        {
          Effect: "Deny",
          Action: ["s3:PutObject", "s3:PutBucketAcl"],
          Resource: "*",
          Condition: { StringEquals: { "s3:x-amz-acl": ["public-read", "public-read-write"] } },
        },
        {
          Effect: "Deny",
          Action: "ec2:RunInstances",
          Resource: "arn:aws:ec2:*:*:instance/*",
          Condition: { StringNotEquals: { "ec2:MetadataHttpTokens": "required" } },
        },
      ],
    });
    const policy = await cli("us-east-1", management, [
      "organizations",
      "create-policy",
      "--name",
      "cli-guardrails",
      "--description",
      "guardrails",
      "--type",
      "SERVICE_CONTROL_POLICY",
      "--content",
      document,
    ]);
    expect(policy.stderr).toBe("");
    const { Id: policyId, Arn: policyArn } = policy.json<{
      Policy: { PolicySummary: { Id: string; Arn: string } };
    }>().Policy.PolicySummary;
    const attached = await cli("us-east-1", management, [
      "organizations",
      "attach-policy",
      "--policy-id",
      policyId,
      "--target-id",
      alice.accountId,
    ]);
    expect(attached.stderr).toBe("");

    const s3 = refusal(await putBlock(developer));
    expect([s3.code, s3.operation]).toEqual(["AccessDenied", "PutPublicAccessBlock"]);
    expect(s3.message).toBe(
      `User: arn:aws:sts::${alice.accountId}:assumed-role/Developer/alice is not authorized to perform: s3:PutBucketPublicAccessBlock on resource: "arn:aws:s3:::${bucket}" with an explicit deny in a service control policy: ${policyArn}`,
    );
    const ec2 = refusal(await runImdsV1(developer));
    expect([ec2.code, ec2.operation]).toEqual(["UnauthorizedOperation", "RunInstances"]);
    expect(ec2.message).toMatch(
      /^You are not authorized to perform this operation\. .*Encoded authorization failure message: \S+$/,
    );
    const iam = refusal(await createUser(developer, "another-user"));
    expect([iam.code, iam.operation]).toEqual(["AccessDenied", "CreateUser"]);
    expect(iam.message).toContain(`with an explicit deny in a service control policy: ${policyArn}`);

    const publicPut = refusal(
      await cli("us-east-1", developer, [
        "s3api",
        "put-object",
        "--bucket",
        bucket,
        "--key",
        "b.txt",
        "--body",
        file,
        "--acl",
        "public-read",
      ]),
    );
    expect([publicPut.code, publicPut.operation]).toEqual(["AccessDenied", "PutObject"]);
    expect(publicPut.message).toContain(
      `s3:PutObject on resource: "arn:aws:s3:::${bucket}/b.txt" with an explicit deny`,
    );
    const publicAcl = refusal(
      await cli("us-east-1", developer, [
        "s3api",
        "put-bucket-acl",
        "--bucket",
        bucket,
        "--acl",
        "public-read",
      ]),
    );
    expect([publicAcl.code, publicAcl.operation]).toEqual(["AccessDenied", "PutBucketAcl"]);
    const privateAcl = await cli("us-east-1", developer, [
      "s3api",
      "put-bucket-acl",
      "--bucket",
      bucket,
      "--acl",
      "private",
    ]);
    expect(privateAcl.stderr).toBe("");

    // S3 Control's account-level setting (the CLI cannot reach a local endpoint for it: it puts the
    // account id in front of the endpoint's host), signed as the CLI signs it.
    const account = await accountBlock(developer, "PUT");
    expect(account.status).toBe(403);
    expect(account.body).toContain("<Code>AccessDenied</Code>");
    expect(account.body).toContain(
      `s3:PutAccountPublicAccessBlock on resource: &quot;*&quot; with an explicit deny in a service control policy: ${policyArn}`,
    );
    expect((await accountBlock(admin, "PUT")).status).toBe(200);
    const readBack = await accountBlock(developer, "GET");
    expect(readBack.body).toContain("<BlockPublicAcls>true</BlockPublicAcls>");

    // What the SCP does not deny still works: IMDSv2 launches, and the exempt role's changes.
    const v2 = await cli("eu-west-1", developer, [
      "ec2",
      "run-instances",
      "--image-id",
      "ami-0abcdef1234567890",
      "--metadata-options",
      "HttpTokens=required,HttpPutResponseHopLimit=1",
    ]);
    expect(v2.stderr).toBe("");
    expect((await putBlock(admin)).code).toBe(0);
    expect((await createUser(admin, "exempt-made")).stderr).toBe("");

    const lookup = async (region: string) => {
      const out = await cli(region, alice, ["cloudtrail", "lookup-events", "--no-paginate"]);
      expect(out.stderr).toBe("");
      return out
        .json<{ Events: { CloudTrailEvent: string }[] }>()
        .Events.map((e) => JSON.parse(e.CloudTrailEvent) as Record<string, unknown>);
    };
    const east = await lookup("us-east-1");
    const west = await lookup("eu-west-1");
    const denied = (records: Record<string, unknown>[], name: string) =>
      records.find((r) => r.eventName === name && r.errorCode !== undefined);
    expect(denied(east, "PutBucketPublicAccessBlock")).toMatchObject({
      eventSource: "s3.amazonaws.com",
      errorCode: "AccessDenied",
      errorMessage: s3.message,
      userIdentity: {
        type: "AssumedRole",
        arn: `arn:aws:sts::${alice.accountId}:assumed-role/Developer/alice`,
      },
    });
    expect(denied(east, "CreateUser")).toMatchObject({
      eventSource: "iam.amazonaws.com",
      errorCode: "AccessDenied",
    });
    expect(denied(west, "RunInstances")).toMatchObject({
      eventSource: "ec2.amazonaws.com",
      errorCode: "Client.UnauthorizedOperation",
    });
  }, 120_000);
});

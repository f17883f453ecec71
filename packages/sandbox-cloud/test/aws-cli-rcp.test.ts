import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { awsCliPresent, type CliCredentials, developerSession, refusal, runAws } from "./aws-cli";
import { type Harness, startHarness } from "./sandbox-harness";

// Resource control policies through the AWS CLI v1 (botocore), a client nobody here wrote:
// - the policy type is enabled on the root first (EnablePolicyType,
//   https://docs.aws.amazon.com/organizations/latest/APIReference/API_EnablePolicyType.html), which
//   attaches the AWS-managed RCPFullAWSAccess everywhere, undetachable
//   (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_rcps_syntax.html);
// - an RCP has Deny statements with `Principal: "*"` only, on the services RCPs support
//   (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_rcps.html);
// - an RCP on the account's OU denies S3 calls on its buckets made without TLS (the sandbox's http
//   listener sets aws:SecureTransport to false), naming "a resource control policy" and its ARN,
//   recorded in CloudTrail with the error.

const present = awsCliPresent();

let h: Harness;
let management: CliCredentials;
let developer: CliCredentials;
let accountId: string;
let alice: CliCredentials & { accountId: string };
let file: string;
const bucket = `rcp-guarded-${Date.now().toString(36)}`;

const cli = (credentials: CliCredentials, args: string[]) =>
  runAws(h.cloud.url, "us-east-1", credentials, args);
const orgs = (args: string[]) => cli(management, ["organizations", ...args]);

const rcp = (statement: Record<string, unknown>) =>
  JSON.stringify({ Version: "2012-10-17", Statement: [statement] });
const createRcp = (name: string, content: string) =>
  orgs([
    "create-policy",
    "--name",
    name,
    "--description",
    name,
    "--type",
    "RESOURCE_CONTROL_POLICY",
    "--content",
    content,
  ]);

const TLS_ONLY = rcp({
  Sid: "EnforceTls",
  Effect: "Deny",
  Principal: "*",
  Action: ["s3:*", "sqs:*", "kms:*", "sts:*", "secretsmanager:*"],
  Resource: "*",
  Condition: { BoolIfExists: { "aws:SecureTransport": "false" } },
});

describe.skipIf(!present)("resource control policies through the AWS CLI", () => {
  beforeAll(async () => {
    h = await startHarness();
    file = join(mkdtempSync(join(tmpdir(), "palisade-rcp-")), "object.txt");
    writeFileSync(file, "hello");
    management = { accessKeyId: h.cloud.aws.accessKeyId, secretAccessKey: h.cloud.aws.secretAccessKey };
    ({ alice, developer } = await developerSession(h.cloud.url, "payments-dev"));
    accountId = alice.accountId;
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
    if (file) rmSync(dirname(file), { recursive: true, force: true });
  });

  it("enables the policy type, validates RCPs as Organizations does, and denies plain-http S3 calls", async () => {
    expect(refusal(await createRcp("too-early", TLS_ONLY)).code).toBe("PolicyTypeNotEnabledException");
    const rootId = (await orgs(["list-roots"])).json<{ Roots: { Id: string }[] }>().Roots[0]!.Id;
    const enabled = await orgs([
      "enable-policy-type",
      "--root-id",
      rootId,
      "--policy-type",
      "RESOURCE_CONTROL_POLICY",
    ]);
    expect(enabled.stderr).toBe("");
    expect(enabled.json<{ Root: { PolicyTypes: unknown[] } }>().Root.PolicyTypes).toContainEqual({
      Type: "RESOURCE_CONTROL_POLICY",
      Status: "ENABLED",
    });
    const roots = (await orgs(["list-roots"])).json<{ Roots: { PolicyTypes: unknown[] }[] }>();
    expect(roots.Roots[0]!.PolicyTypes).toContainEqual({
      Type: "RESOURCE_CONTROL_POLICY",
      Status: "ENABLED",
    });
    expect(
      refusal(
        await orgs(["enable-policy-type", "--root-id", rootId, "--policy-type", "RESOURCE_CONTROL_POLICY"]),
      ).code,
    ).toBe("PolicyTypeAlreadyEnabledException");

    const managed = (await orgs(["list-policies", "--filter", "RESOURCE_CONTROL_POLICY"])).json<{
      Policies: { Id: string; Name: string; AwsManaged: boolean; Type: string }[];
    }>().Policies;
    expect(managed).toEqual([
      expect.objectContaining({
        Name: "RCPFullAWSAccess",
        AwsManaged: true,
        Type: "RESOURCE_CONTROL_POLICY",
      }),
    ]);
    const scps = (await orgs(["list-policies", "--filter", "SERVICE_CONTROL_POLICY"])).json<{
      Policies: { Name: string }[];
    }>().Policies;
    expect(scps.map((p) => p.Name)).not.toContain("RCPFullAWSAccess");

    const base = { Effect: "Deny", Principal: "*", Action: "s3:GetObject", Resource: "*" };
    for (const bad of [
      { ...base, Effect: "Allow" },
      { ...base, Principal: { AWS: "arn:aws:iam::111122223333:root" } },
      { Effect: "Deny", NotPrincipal: { AWS: "*" }, Action: "s3:GetObject", Resource: "*" },
      { ...base, Action: "ec2:RunInstances" },
    ]) {
      expect(refusal(await createRcp("bad", rcp(bad))).code).toBe("MalformedPolicyDocumentException");
    }
    expect(refusal(await createRcp("too-big", rcp({ ...base, Sid: "x".repeat(5200) }))).code).toBe(
      "ConstraintViolationException",
    );

    // Before any RCP: the developer writes and reads over the sandbox's plain http endpoint.
    expect((await cli(developer, ["s3api", "create-bucket", "--bucket", bucket])).stderr).toBe("");
    expect(
      (await cli(developer, ["s3api", "put-object", "--bucket", bucket, "--key", "a.txt", "--body", file]))
        .stderr,
    ).toBe("");

    const created = await createRcp("tls-only", TLS_ONLY);
    expect(created.stderr).toBe("");
    const { Id: policyId, Arn: policyArn } = created.json<{
      Policy: { PolicySummary: { Id: string; Arn: string } };
    }>().Policy.PolicySummary;
    expect(policyArn).toMatch(
      /^arn:aws:organizations::\d{12}:policy\/o-[a-z0-9]+\/resource_control_policy\/p-[a-z0-9]+$/,
    );
    const ouId = (await orgs(["list-parents", "--child-id", accountId])).json<{ Parents: { Id: string }[] }>()
      .Parents[0]!.Id;
    expect((await orgs(["attach-policy", "--policy-id", policyId, "--target-id", ouId])).stderr).toBe("");
    const onOu = (
      await orgs(["list-policies-for-target", "--target-id", ouId, "--filter", "RESOURCE_CONTROL_POLICY"])
    )
      .json<{ Policies: { Name: string }[] }>()
      .Policies.map((p) => p.Name)
      .sort();
    expect(onOu).toEqual(["RCPFullAWSAccess", "tls-only"]);
    const fullId = managed[0]!.Id;
    expect(refusal(await orgs(["detach-policy", "--policy-id", fullId, "--target-id", ouId])).code).toBe(
      "ConstraintViolationException",
    );

    const read = refusal(
      await cli(developer, ["s3api", "get-object", "--bucket", bucket, "--key", "a.txt", `${file}.out`]),
    );
    expect([read.code, read.operation]).toEqual(["AccessDenied", "GetObject"]);
    expect(read.message).toBe(
      `User: arn:aws:sts::${accountId}:assumed-role/Developer/alice is not authorized to perform: s3:GetObject on resource: "arn:aws:s3:::${bucket}/a.txt" with an explicit deny in a resource control policy: ${policyArn}`,
    );
    const block = refusal(
      await cli(developer, [
        "s3api",
        "put-public-access-block",
        "--bucket",
        bucket,
        "--public-access-block-configuration",
        "BlockPublicAcls=true,IgnorePublicAcls=true,BlockPublicPolicy=true,RestrictPublicBuckets=true",
      ]),
    );
    expect(block.code).toBe("AccessDenied");
    expect(block.message).toContain(`with an explicit deny in a resource control policy: ${policyArn}`);

    // STS is served over the same plain http endpoint: AssumeRole on the account's role is denied too.
    const assume = refusal(
      await cli(alice, [
        "sts",
        "assume-role",
        "--role-arn",
        `arn:aws:iam::${accountId}:role/Developer`,
        "--role-session-name",
        "again",
      ]),
    );
    expect([assume.code, assume.operation]).toEqual(["AccessDenied", "AssumeRole"]);
    expect(assume.message).toBe(
      `User: arn:aws:iam::${accountId}:user/alice is not authorized to perform: sts:AssumeRole on resource: arn:aws:iam::${accountId}:role/Developer with an explicit deny in a resource control policy: ${policyArn}`,
    );

    const events = (await cli(developer, ["cloudtrail", "lookup-events", "--no-paginate"]))
      .json<{ Events: { CloudTrailEvent: string }[] }>()
      .Events.map((e) => JSON.parse(e.CloudTrailEvent) as Record<string, unknown>);
    expect(events.find((e) => e.eventName === "PutBucketPublicAccessBlock" && e.errorCode)).toMatchObject({
      eventSource: "s3.amazonaws.com",
      errorCode: "AccessDenied",
      errorMessage: block.message,
    });
    const management_ = (await cli(management, ["cloudtrail", "lookup-events", "--no-paginate"]))
      .json<{ Events: { CloudTrailEvent: string }[] }>()
      .Events.map((e) => JSON.parse(e.CloudTrailEvent) as Record<string, unknown>);
    expect(management_.find((e) => e.eventName === "EnablePolicyType")).toMatchObject({
      eventSource: "organizations.amazonaws.com",
      requestParameters: { rootId, policyType: "RESOURCE_CONTROL_POLICY" },
    });

    // Disabling the type detaches every RCP and lifts the denial.
    expect(
      (await orgs(["disable-policy-type", "--root-id", rootId, "--policy-type", "RESOURCE_CONTROL_POLICY"]))
        .stderr,
    ).toBe("");
    expect(
      (await cli(developer, ["s3api", "get-object", "--bucket", bucket, "--key", "a.txt", `${file}.out`]))
        .stderr,
    ).toBe("");
  }, 180_000);
});

import { CloudTrailClient, LookupEventsCommand } from "@aws-sdk/client-cloudtrail";
import {
  AttachPolicyCommand,
  CreatePolicyCommand,
  DescribePolicyCommand,
  OrganizationsClient as Organizations,
  type OrganizationsClient,
} from "@aws-sdk/client-organizations";
import { AssumeRoleCommand, GetCallerIdentityCommand, STSClient } from "@aws-sdk/client-sts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "./sandbox-harness";

let h: Harness;
let org: OrganizationsClient;
beforeAll(async () => {
  h = await startHarness();
  org = await h.connectorOrganizations();
});
afterAll(() => h.stop());

const tryAws = (body: Record<string, unknown>) => h.post("/sandbox/try", { provider: "aws", ...body });

async function accountId(name: string): Promise<string> {
  const out = await tryAws({
    account: name,
    principal: "user/alice",
    action: "s3:ListBucket",
    resource: "*",
  });
  return String(out.body.principal).split(":")[4]!;
}

async function attachScp(name: string, statements: unknown[], targetId: string): Promise<void> {
  const out = await org.send(
    new CreatePolicyCommand({
      Name: name,
      Description: name,
      Type: "SERVICE_CONTROL_POLICY",
      Content: JSON.stringify({ Version: "2012-10-17", Statement: statements }),
    }),
  );
  await org.send(new AttachPolicyCommand({ PolicyId: out.Policy!.PolicySummary!.Id!, TargetId: targetId }));
}

const deny = (action: string, condition: Record<string, unknown>, resource = "*") => ({
  Effect: "Deny",
  Action: action,
  Resource: resource,
  Condition: condition,
});

// https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-keys.html#condition-keys-principal-properties
describe("the principal's global condition keys, as AWS sets them", () => {
  let account: string;
  beforeAll(async () => {
    account = await accountId("payments-dev");
    await attachScp(
      "principal-keys",
      [
        // A principal waiver as Palisade writes it: the role, whatever its path.
        deny("s3:PutBucketAcl", {
          ArnNotLike: { "aws:PrincipalArn": `arn:aws:iam::${account}:role*/Developer` },
        }),
        // aws:PrincipalArn is never a session ARN, so an exception naming one exempts nobody.
        deny("s3:PutBucketTagging", {
          ArnNotEquals: { "aws:PrincipalArn": `arn:aws:sts::${account}:assumed-role/Developer/alice` },
        }),
        // aws:userid of a role session is "ROLEID:SESSION"; a role's unique id starts with AROA.
        deny("s3:GetBucketTagging", { StringNotLike: { "aws:userid": "AROA*:alice" } }),
        // aws:username exists for IAM users only.
        deny("s3:GetBucketPolicy", { Null: { "aws:username": "true" } }),
        deny("s3:GetBucketLogging", { StringNotEquals: { "aws:PrincipalType": "AssumedRole" } }),
        // Present in every signed request: "false" for IAM principals.
        deny("s3:GetBucketCors", { Bool: { "aws:PrincipalIsAWSService": "false" } }),
        deny("s3:GetBucketWebsite", {
          StringNotEquals: { "aws:PrincipalServiceName": "cloudtrail.amazonaws.com" },
        }),
      ],
      account,
    );
  });

  const status = async (principal: string, action: string) =>
    (await tryAws({ account: "payments-dev", principal, action, resource: "*" })).status;
  const session = (role: string, name: string) => `arn:aws:sts::${account}:assumed-role/${role}/${name}`;

  it("evaluates a role session as its role: a waiver for the role covers its sessions and nobody else", async () => {
    expect(await status(session("Developer", "alice"), "s3:PutBucketAcl")).toBe(200);
    expect(await status("role/Developer/bob", "s3:PutBucketAcl")).toBe(200);
    expect(await status(session("Admin", "alice"), "s3:PutBucketAcl")).toBe(403);
    expect(await status("user/alice", "s3:PutBucketAcl")).toBe(403);
    expect(await status(session("Developer", "alice"), "s3:PutBucketTagging")).toBe(403);
  });

  it("sets aws:userid, aws:username and aws:PrincipalType by the kind of principal", async () => {
    expect(await status(session("Developer", "alice"), "s3:GetBucketTagging")).toBe(200);
    expect(await status(session("Admin", "alice"), "s3:GetBucketTagging")).toBe(200);
    expect(await status(session("Developer", "bob"), "s3:GetBucketTagging")).toBe(403);
    expect(await status("user/alice", "s3:GetBucketTagging")).toBe(403);

    expect(await status("user/alice", "s3:GetBucketPolicy")).toBe(200);
    expect(await status(session("Developer", "alice"), "s3:GetBucketPolicy")).toBe(403);

    expect(await status(session("Developer", "alice"), "s3:GetBucketLogging")).toBe(200);
    expect(await status("user/alice", "s3:GetBucketLogging")).toBe(403);
  });

  it("marks a service principal's requests and names the service", async () => {
    expect(await status("cloudtrail.amazonaws.com", "s3:GetBucketCors")).toBe(200);
    expect(await status("user/alice", "s3:GetBucketCors")).toBe(403);
    expect(await status("cloudtrail.amazonaws.com", "s3:GetBucketWebsite")).toBe(200);
    expect(await status("config.amazonaws.com", "s3:GetBucketWebsite")).toBe(403);
  });
});

describe("try", () => {
  // https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_action.html:
  // action names are case-insensitive.
  it("reads action names case-insensitively, as IAM does", async () => {
    const account = await accountId("storefront-dev");
    await attachScp(
      "no-imdsv1",
      [deny("ec2:RunInstances", { StringNotEquals: { "ec2:MetadataHttpTokens": "required" } })],
      account,
    );
    for (const action of ["ec2:RunInstances", "EC2:RunInstances", "ec2:runinstances"]) {
      const out = await tryAws({
        account: "storefront-dev",
        principal: "role/Developer",
        action,
        resource: "*",
      });
      expect(out.status, action).toBe(403);
    }
    const allowed = await tryAws({
      account: "storefront-dev",
      principal: "role/Developer",
      action: "EC2:runinstances",
      resource: "*",
      context: { "ec2:MetadataHttpTokens": "required" },
    });
    expect(allowed.status).toBe(200);
    expect(allowed.body.action).toBe("ec2:RunInstances");
    expect(String(allowed.body.resource)).toMatch(/:instance\/i-/);
  });

  it("answers the same for the same request whatever was tried before", async () => {
    const account = await accountId("sandbox-bob");
    // Denies only requests about IAM users, so a "*" that resolved to a user would flip.
    await attachScp("no-user-reads", [deny("ec2:DescribeInstances", {}, "arn:aws:iam::*:user/*")], account);
    const describe = () =>
      tryAws({
        account: "sandbox-bob",
        principal: "user/bob",
        action: "ec2:DescribeInstances",
        resource: "*",
      });
    const before = await describe();
    expect(before.status).toBe(200);
    const created = await tryAws({
      account: "sandbox-bob",
      principal: "user/bob",
      action: "iam:CreateUser",
      resource: "*",
    });
    expect(created.status).toBe(200);
    expect(created.body.resource).toBe("*");
    const after = await describe();
    expect(after.status).toBe(200);
    expect(after.body.resource).toBe("*");
  });
});

// https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_identifiers.html#identifiers-unique-ids:
// a user's unique id starts with AIDA, a role's with AROA; a session is "ROLEID:SESSION".
describe("STS names callers by the unique ids aws:userid carries", () => {
  it("answers a user's and a role session's UserId", async () => {
    const sts = (credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string }) =>
      new STSClient({ endpoint: h.cloud.aws.endpoint, region: "us-east-1", credentials });
    const user = sts({ accessKeyId: h.cloud.aws.accessKeyId, secretAccessKey: h.cloud.aws.secretAccessKey });
    expect((await user.send(new GetCallerIdentityCommand({}))).UserId).toMatch(/^AIDA[A-Z2-7]{17}$/);
    const assumed = await user.send(
      new AssumeRoleCommand({
        RoleArn: h.cloud.aws.connectorRoleArn,
        RoleSessionName: "audit",
        ExternalId: h.cloud.aws.externalId,
      }),
    );
    expect(assumed.AssumedRoleUser?.AssumedRoleId).toMatch(/^AROA[A-Z2-7]{17}:audit$/);
    const session = sts({
      accessKeyId: assumed.Credentials!.AccessKeyId!,
      secretAccessKey: assumed.Credentials!.SecretAccessKey!,
      sessionToken: assumed.Credentials!.SessionToken!,
    });
    expect((await session.send(new GetCallerIdentityCommand({}))).UserId).toBe(
      assumed.AssumedRoleUser?.AssumedRoleId,
    );
  });

  // https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-event-reference-user-identity.html:
  // principalId is the user's unique id, or "ROLEID:SESSION" for an assumed role.
  it("records each caller in CloudTrail under the UserId STS answers", async () => {
    const userCredentials = {
      accessKeyId: h.cloud.aws.accessKeyId,
      secretAccessKey: h.cloud.aws.secretAccessKey,
    };
    const user = new STSClient({
      endpoint: h.cloud.aws.endpoint,
      region: "us-east-1",
      credentials: userCredentials,
    });
    const userId = (await user.send(new GetCallerIdentityCommand({}))).UserId;
    const assumed = await user.send(
      new AssumeRoleCommand({
        RoleArn: h.cloud.aws.connectorRoleArn,
        RoleSessionName: "recorded",
        ExternalId: h.cloud.aws.externalId,
      }),
    );
    const sessionCredentials = {
      accessKeyId: assumed.Credentials!.AccessKeyId!,
      secretAccessKey: assumed.Credentials!.SecretAccessKey!,
      sessionToken: assumed.Credentials!.SessionToken!,
    };
    const endpoint = h.cloud.aws.endpoint;
    // A failed call is recorded too.
    await expect(
      new Organizations({ endpoint, region: "us-east-1", credentials: sessionCredentials }).send(
        new DescribePolicyCommand({ PolicyId: "p-00000000" }),
      ),
    ).rejects.toThrow();
    const trail = new CloudTrailClient({ endpoint, region: "us-east-1", credentials: userCredentials });
    const identityOf = async (eventName: string) => {
      const page = await trail.send(
        new LookupEventsCommand({
          LookupAttributes: [{ AttributeKey: "EventName", AttributeValue: eventName }],
        }),
      );
      const records = (page.Events ?? []).map((e) => JSON.parse(e.CloudTrailEvent!));
      return records.find(
        (r) =>
          r.userIdentity.arn.endsWith("/recorded") || r.requestParameters?.roleSessionName === "recorded",
      )?.userIdentity;
    };
    expect((await identityOf("AssumeRole"))?.principalId).toBe(userId);
    const sessionIdentity = await identityOf("DescribePolicy");
    expect(sessionIdentity?.principalId).toBe(assumed.AssumedRoleUser?.AssumedRoleId);
    expect(sessionIdentity?.sessionContext.sessionIssuer.principalId).toBe(
      assumed.AssumedRoleUser?.AssumedRoleId?.split(":")[0],
    );
  });
});

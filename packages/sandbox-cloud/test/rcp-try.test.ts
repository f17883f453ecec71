import {
  AttachPolicyCommand,
  CreatePolicyCommand,
  EnablePolicyTypeCommand,
  ListParentsCommand,
  ListRootsCommand,
  type OrganizationsClient,
} from "@aws-sdk/client-organizations";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "./sandbox-harness";

// Resource control policies in `/sandbox/try`: they restrict what is done to the resources of member
// accounts whoever calls, a principal outside the organisation included; resources of the management
// account and calls by service-linked roles are not affected; a denial names "a resource control
// policy" and its ARN (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_rcps.html).

let h: Harness;
let org: OrganizationsClient;
let member: string;
let management: string;
let rcpArn: string;
const OUTSIDER = "arn:aws:iam::999999999999:role/Partner";

const tryAws = (body: Record<string, unknown>) => h.post("/sandbox/try", { provider: "aws", ...body });
const accountOf = async (name: string) =>
  String(
    (await tryAws({ account: name, principal: "user/alice", action: "sts:GetCallerIdentity", resource: "*" }))
      .body.principal,
  ).split(":")[4]!;

beforeAll(async () => {
  h = await startHarness();
  org = await h.connectorOrganizations();
  member = await accountOf("payments-dev");
  management = (
    await tryAws({
      account: "management",
      principal: "user/alice",
      action: "sts:GetCallerIdentity",
      resource: "*",
    })
  ).body.principal as string;
  management = management.split(":")[4]!;
  const rootId = (await org.send(new ListRootsCommand({}))).Roots![0]!.Id!;
  await org.send(new EnablePolicyTypeCommand({ RootId: rootId, PolicyType: "RESOURCE_CONTROL_POLICY" }));
  const created = await org.send(
    new CreatePolicyCommand({
      Name: "data-perimeter",
      Description: "org principals only, TLS only",
      Type: "RESOURCE_CONTROL_POLICY",
      Content: JSON.stringify({
        Version: "2012-10-17",
        Statement: [
          {
            Sid: "OrgOnly",
            Effect: "Deny",
            Principal: "*",
            Action: ["s3:*", "sts:AssumeRole", "kms:*", "sqs:*", "secretsmanager:*"],
            Resource: "*",
            Condition: {
              StringNotEqualsIfExists: {
                "aws:PrincipalOrgID": (await org.send(new ListRootsCommand({}))).Roots![0]!.Arn!.split(
                  "/",
                )[1]!,
              },
              BoolIfExists: { "aws:PrincipalIsAWSService": "false" },
            },
          },
          {
            Sid: "TlsOnly",
            Effect: "Deny",
            Principal: "*",
            Action: "s3:*",
            Resource: "*",
            Condition: { BoolIfExists: { "aws:SecureTransport": "false" } },
          },
        ],
      }),
    }),
  );
  rcpArn = created.Policy!.PolicySummary!.Arn!;
  const ou = (await org.send(new ListParentsCommand({ ChildId: member }))).Parents![0]!.Id!;
  await org.send(new AttachPolicyCommand({ PolicyId: created.Policy!.PolicySummary!.Id!, TargetId: ou }));
}, 60_000);
afterAll(() => h?.stop());

describe("resource control policies in /sandbox/try", () => {
  const object = (account: string, name: string) =>
    `arn:aws:s3:::${name}-artifacts-${account.slice(-4)}/report.csv`;

  it("denies a principal outside the organisation on a member account's bucket, naming the RCP", async () => {
    const out = await tryAws({
      account: member,
      principal: OUTSIDER,
      action: "s3:GetObject",
      resource: object(member, "payments-dev"),
    });
    expect(out.status).toBe(403);
    expect((out.body.error as { Message: string }).Message).toBe(
      // A role named without a session acts as a session named after it.
      `User: arn:aws:sts::999999999999:assumed-role/Partner/Partner is not authorized to perform: s3:GetObject on resource: "${object(member, "payments-dev")}" with an explicit deny in a resource control policy: ${rcpArn}`,
    );
    expect(out.body.policy).toMatchObject({ arn: rcpArn, name: "data-perimeter", sid: "OrgOnly" });
  });

  it("lets the organisation's principals through over TLS and denies them without it", async () => {
    const resource = object(member, "payments-dev");
    expect(
      (await tryAws({ account: member, principal: "user/alice", action: "s3:GetObject", resource })).status,
    ).toBe(200);
    const plain = await tryAws({
      account: member,
      principal: "user/alice",
      action: "s3:GetObject",
      resource,
      context: { "aws:SecureTransport": "false" },
    });
    expect(plain.status).toBe(403);
    expect(plain.body.policy).toMatchObject({ arn: rcpArn, sid: "TlsOnly" });
  });

  it("spares the management account's resources, whoever calls", async () => {
    const own = await tryAws({
      account: management,
      principal: OUTSIDER,
      action: "s3:GetObject",
      resource: object(management, "management"),
    });
    expect(own.status).toBe(200);
  });
});

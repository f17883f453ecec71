import { CloudTrailClient, LookupEventsCommand, paginateLookupEvents } from "@aws-sdk/client-cloudtrail";
import {
  AttachPolicyCommand,
  CreatePolicyCommand,
  DeletePolicyCommand,
  DescribeOrganizationCommand,
  DescribePolicyCommand,
  DetachPolicyCommand,
  ListChildrenCommand,
  ListPoliciesForTargetCommand,
  ListRootsCommand,
  ListTargetsForPolicyCommand,
  type OrganizationsClient,
  paginateListAccounts,
  paginateListAccountsForParent,
  paginateListOrganizationalUnitsForParent,
  UpdatePolicyCommand,
} from "@aws-sdk/client-organizations";
import { AssumeRoleCommand, GetCallerIdentityCommand, STSClient } from "@aws-sdk/client-sts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "./sandbox-harness";

const denyEc2 = (sid: string) =>
  JSON.stringify({
    Version: "2012-10-17",
    Statement: [{ Sid: sid, Effect: "Deny", Action: "ec2:*", Resource: "*" }],
  });

async function errorOf(
  promise: Promise<unknown>,
): Promise<{ name: string; message: string; Reason?: string }> {
  try {
    await promise;
  } catch (err) {
    return err as { name: string; message: string; Reason?: string };
  }
  throw new Error("expected the call to fail");
}

let h: Harness;
let org: OrganizationsClient;
beforeAll(async () => {
  h = await startHarness();
  org = await h.connectorOrganizations();
});
afterAll(() => h.stop());

describe("AWS Organizations hierarchy", () => {
  it("lists the root, nested OUs and every account with paging", async () => {
    const { Organization } = await org.send(new DescribeOrganizationCommand({}));
    expect(Organization?.MasterAccountId).toBe(h.cloud.aws.managementAccountId);
    const { Roots } = await org.send(new ListRootsCommand({}));
    expect(Roots).toHaveLength(1);
    const rootId = Roots![0]!.Id!;

    const walk = async (parentId: string, depth: number): Promise<string[]> => {
      const names: string[] = [];
      for await (const page of paginateListOrganizationalUnitsForParent(
        { client: org, pageSize: 2 },
        { ParentId: parentId },
      )) {
        for (const ou of page.OrganizationalUnits ?? []) {
          names.push(`${"-".repeat(depth)}${ou.Name}`, ...(await walk(ou.Id!, depth + 1)));
        }
      }
      return names;
    };
    const tree = await walk(rootId, 0);
    expect(tree).toEqual(
      expect.arrayContaining(["Security", "Workloads", "-Workloads-Prod", "-Workloads-Dev", "Sandbox"]),
    );

    const pages: number[] = [];
    const accounts: string[] = [];
    for await (const page of paginateListAccounts({ client: org, pageSize: 3 }, {})) {
      pages.push(page.Accounts?.length ?? 0);
      accounts.push(...(page.Accounts ?? []).map((a) => a.Id!));
    }
    expect(accounts.length).toBeGreaterThanOrEqual(9);
    expect(new Set(accounts).size).toBe(accounts.length);
    expect(pages[0]).toBe(3);

    const children = await org.send(new ListChildrenCommand({ ParentId: rootId, ChildType: "ACCOUNT" }));
    expect(children.Children?.map((c) => c.Id)).toContain(h.cloud.aws.managementAccountId);
  });

  it("answers ParentNotFoundException for an unknown parent", async () => {
    const pager = paginateListAccountsForParent({ client: org }, { ParentId: "ou-zzzz-00000000" });
    const err = await errorOf(pager.next());
    expect(err.name).toBe("ParentNotFoundException");
  });
});

describe("service control policies", () => {
  it("creates, attaches, lists, detaches and deletes an SCP", async () => {
    const { Roots } = await org.send(new ListRootsCommand({}));
    const rootId = Roots![0]!.Id!;
    const created = await org.send(
      new CreatePolicyCommand({
        Name: "pal-deny-ec2",
        Description: "test",
        Type: "SERVICE_CONTROL_POLICY",
        Content: denyEc2("A"),
      }),
    );
    const id = created.Policy!.PolicySummary!.Id!;
    expect(created.Policy!.PolicySummary!.Arn).toBe(
      `arn:aws:organizations::${h.cloud.aws.managementAccountId}:policy/${(await org.send(new DescribeOrganizationCommand({}))).Organization!.Id}/service_control_policy/${id}`,
    );
    await org.send(new AttachPolicyCommand({ PolicyId: id, TargetId: rootId }));
    const forRoot = await org.send(
      new ListPoliciesForTargetCommand({ TargetId: rootId, Filter: "SERVICE_CONTROL_POLICY" }),
    );
    expect(forRoot.Policies?.map((p) => p.Name)).toEqual(["FullAWSAccess", "pal-deny-ec2"]);
    const targets = await org.send(new ListTargetsForPolicyCommand({ PolicyId: id }));
    expect(targets.Targets).toEqual([expect.objectContaining({ TargetId: rootId, Type: "ROOT" })]);

    expect((await errorOf(org.send(new AttachPolicyCommand({ PolicyId: id, TargetId: rootId })))).name).toBe(
      "DuplicatePolicyAttachmentException",
    );
    expect((await errorOf(org.send(new DeletePolicyCommand({ PolicyId: id })))).name).toBe(
      "PolicyInUseException",
    );

    await org.send(new UpdatePolicyCommand({ PolicyId: id, Content: denyEc2("B") }));
    const described = await org.send(new DescribePolicyCommand({ PolicyId: id }));
    expect(JSON.parse(described.Policy!.Content!).Statement[0].Sid).toBe("B");

    await org.send(new DetachPolicyCommand({ PolicyId: id, TargetId: rootId }));
    await org.send(new DeletePolicyCommand({ PolicyId: id }));
    expect((await errorOf(org.send(new DescribePolicyCommand({ PolicyId: id })))).name).toBe(
      "PolicyNotFoundException",
    );
  });

  // 10 SCPs per target of 10,240 characters each
  // (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_reference_limits.html).
  it("refuses an eleventh SCP on a target, an oversized document, a duplicate name and malformed JSON", async () => {
    const { Roots } = await org.send(new ListRootsCommand({}));
    const { Children } = await org.send(
      new ListChildrenCommand({ ParentId: Roots![0]!.Id!, ChildType: "ORGANIZATIONAL_UNIT" }),
    );
    const ouId = Children![0]!.Id!;
    // FullAWSAccess is already attached, so nine more reach the limit of ten.
    for (let i = 0; i < 9; i++) {
      const p = await org.send(
        new CreatePolicyCommand({
          Name: `limit-${i}`,
          Description: "",
          Type: "SERVICE_CONTROL_POLICY",
          Content: denyEc2(`L${i}`),
        }),
      );
      await org.send(new AttachPolicyCommand({ PolicyId: p.Policy!.PolicySummary!.Id!, TargetId: ouId }));
    }
    const eleventh = await org.send(
      new CreatePolicyCommand({
        Name: "limit-10",
        Description: "",
        Type: "SERVICE_CONTROL_POLICY",
        Content: denyEc2("L5"),
      }),
    );
    const tooMany = await errorOf(
      org.send(new AttachPolicyCommand({ PolicyId: eleventh.Policy!.PolicySummary!.Id!, TargetId: ouId })),
    );
    expect(tooMany.name).toBe("ConstraintViolationException");
    expect(tooMany.Reason).toBe("MAX_POLICY_TYPE_ATTACHMENT_LIMIT_EXCEEDED");

    const big = JSON.stringify({
      Version: "2012-10-17",
      Statement: [
        {
          Effect: "Deny",
          Action: "ec2:*",
          Resource: "*",
          Condition: { StringNotEquals: { "aws:PrincipalArn": "x".repeat(10_200) } },
        },
      ],
    });
    const oversized = await errorOf(
      org.send(
        new CreatePolicyCommand({
          Name: "big",
          Description: "",
          Type: "SERVICE_CONTROL_POLICY",
          Content: big,
        }),
      ),
    );
    expect(oversized.name).toBe("ConstraintViolationException");
    expect(oversized.Reason).toBe("POLICY_CONTENT_LIMIT_EXCEEDED");

    const duplicate = await errorOf(
      org.send(
        new CreatePolicyCommand({
          Name: "limit-0",
          Description: "",
          Type: "SERVICE_CONTROL_POLICY",
          Content: denyEc2("D"),
        }),
      ),
    );
    expect(duplicate.name).toBe("DuplicatePolicyException");

    const malformed = await errorOf(
      org.send(
        new CreatePolicyCommand({
          Name: "bad",
          Description: "",
          Type: "SERVICE_CONTROL_POLICY",
          Content: "{not json",
        }),
      ),
    );
    expect(malformed.name).toBe("MalformedPolicyDocumentException");
    const withPrincipal = await errorOf(
      org.send(
        new CreatePolicyCommand({
          Name: "principal",
          Description: "",
          Type: "SERVICE_CONTROL_POLICY",
          Content: JSON.stringify({
            Version: "2012-10-17",
            Statement: [{ Effect: "Deny", Principal: "*", Action: "s3:*", Resource: "*" }],
          }),
        }),
      ),
    );
    expect(withPrincipal.name).toBe("MalformedPolicyDocumentException");

    const missingTarget = await errorOf(
      org.send(
        new AttachPolicyCommand({
          PolicyId: eleventh.Policy!.PolicySummary!.Id!,
          TargetId: "ou-zzzz-99999999",
        }),
      ),
    );
    expect(missingTarget.name).toBe("TargetNotFoundException");
  });

  it("records a failed call with its error code in the management account's history", async () => {
    const err = await errorOf(org.send(new DescribePolicyCommand({ PolicyId: "p-zzzzzzzz" })));
    expect(err.name).toBe("PolicyNotFoundException");
    const ct = new CloudTrailClient({
      endpoint: h.cloud.aws.endpoint,
      region: "us-east-1",
      credentials: { accessKeyId: h.cloud.aws.accessKeyId, secretAccessKey: h.cloud.aws.secretAccessKey },
    });
    const { Events } = await ct.send(
      new LookupEventsCommand({
        LookupAttributes: [{ AttributeKey: "EventName", AttributeValue: "DescribePolicy" }],
      }),
    );
    expect(JSON.parse(Events![0]!.CloudTrailEvent!)).toMatchObject({
      eventSource: "organizations.amazonaws.com",
      errorCode: "PolicyNotFoundException",
      requestParameters: { policyId: "p-zzzzzzzz" },
      readOnly: true,
    });
  });

  it("answers TooManyRequestsException while throttled and the SDK's retry then succeeds", async () => {
    await h.post("/sandbox/control/throttle", { service: "organizations", count: 1 });
    const out = await org.send(new ListRootsCommand({}));
    expect(out.$metadata.attempts).toBe(2);

    await h.post("/sandbox/control/throttle", { service: "organizations", count: 10 });
    const err = await errorOf(org.send(new ListRootsCommand({})));
    expect(err.name).toBe("TooManyRequestsException");
    await h.post("/sandbox/control/throttle", { service: "organizations", count: 0 });
  });
});

describe("STS", () => {
  const base = () =>
    new STSClient({
      endpoint: h.cloud.aws.endpoint,
      region: "us-east-1",
      credentials: { accessKeyId: h.cloud.aws.accessKeyId, secretAccessKey: h.cloud.aws.secretAccessKey },
    });

  it("assumes the connector role with the right external id only", async () => {
    const sts = base();
    const ok = await sts.send(
      new AssumeRoleCommand({
        RoleArn: h.cloud.aws.connectorRoleArn,
        RoleSessionName: "s1",
        ExternalId: h.cloud.aws.externalId,
      }),
    );
    expect(ok.AssumedRoleUser?.Arn).toBe(
      `arn:aws:sts::${h.cloud.aws.managementAccountId}:assumed-role/PalisadeConnector/s1`,
    );
    const assumed = new STSClient({
      endpoint: h.cloud.aws.endpoint,
      region: "us-east-1",
      credentials: {
        accessKeyId: ok.Credentials!.AccessKeyId!,
        secretAccessKey: ok.Credentials!.SecretAccessKey!,
        sessionToken: ok.Credentials!.SessionToken!,
      },
    });
    expect((await assumed.send(new GetCallerIdentityCommand({}))).Arn).toBe(ok.AssumedRoleUser?.Arn);

    for (const ExternalId of ["wrong", undefined]) {
      const err = await errorOf(
        sts.send(
          new AssumeRoleCommand({ RoleArn: h.cloud.aws.connectorRoleArn, RoleSessionName: "s2", ExternalId }),
        ),
      );
      expect(err.name).toBe("AccessDenied");
      expect(err.message).toContain("is not authorized to perform: sts:AssumeRole");
    }
  });

  it("rejects a wrong secret key with the provider's signature errors", async () => {
    const credentials = {
      accessKeyId: h.cloud.aws.accessKeyId,
      secretAccessKey: `${h.cloud.aws.secretAccessKey}x`,
    };
    const sts = new STSClient({ endpoint: h.cloud.aws.endpoint, region: "us-east-1", credentials });
    expect((await errorOf(sts.send(new GetCallerIdentityCommand({})))).name).toBe("SignatureDoesNotMatch");
    const ct = new CloudTrailClient({ endpoint: h.cloud.aws.endpoint, region: "us-east-1", credentials });
    expect(await errorOf(ct.send(new LookupEventsCommand({})))).toMatchObject({
      name: "InvalidSignatureException",
    });
  });

  it("rejects unknown access keys", async () => {
    const sts = new STSClient({
      endpoint: h.cloud.aws.endpoint,
      region: "us-east-1",
      credentials: { accessKeyId: "AKIAUNKNOWN000000000", secretAccessKey: "x" },
    });
    expect((await errorOf(sts.send(new GetCallerIdentityCommand({})))).name).toBe("InvalidClientTokenId");
  });
});

describe("CloudTrail LookupEvents", () => {
  it("pages through the caller account's events newest first, at two calls a second, filtered by attribute and time", async () => {
    const key = (
      await h.post("/sandbox/control/access-key", { account: "payments-dev", principal: "user/bob" })
    ).body as { accessKeyId: string; secretAccessKey: string };
    const ct = new CloudTrailClient({
      endpoint: h.cloud.aws.endpoint,
      region: "us-east-1",
      credentials: key,
    });
    for (let i = 0; i < 7; i++) {
      await h.post("/sandbox/try", {
        provider: "aws",
        account: "payments-dev",
        principal: "user/alice",
        action: "s3:CreateBucket",
        resource: `trail-page-${i}`,
      });
    }
    const ids: string[] = [];
    let pages = 0;
    // CloudTrail allows two LookupEvents calls per second per account and Region: the pages are paced.
    for await (const page of paginateLookupEvents(
      { client: ct, pageSize: 3 },
      { LookupAttributes: [{ AttributeKey: "EventName", AttributeValue: "CreateBucket" }] },
    )) {
      await new Promise((r) => setTimeout(r, 500));
      pages++;
      ids.push(...(page.Events ?? []).map((e) => e.EventId!));
      for (const e of page.Events ?? []) expect(e.EventName).toBe("CreateBucket");
    }
    expect(ids).toHaveLength(7);
    expect(new Set(ids).size).toBe(7);
    expect(pages).toBe(3);

    await new Promise((r) => setTimeout(r, 1000));
    const first = await ct.send(
      new LookupEventsCommand({
        MaxResults: 1,
        LookupAttributes: [{ AttributeKey: "EventName", AttributeValue: "CreateBucket" }],
      }),
    );
    const record = JSON.parse(first.Events![0]!.CloudTrailEvent!);
    expect(record.userIdentity.arn).toMatch(/^arn:aws:iam::\d{12}:user\/alice$/);
    expect(record.errorCode).toBeUndefined();
    expect(first.Events![0]!.Resources?.[0]?.ResourceName).toBe("arn:aws:s3:::trail-page-6");

    const management = new CloudTrailClient({
      endpoint: h.cloud.aws.endpoint,
      region: "us-east-1",
      credentials: { accessKeyId: h.cloud.aws.accessKeyId, secretAccessKey: h.cloud.aws.secretAccessKey },
    });
    const fromManagement = await management.send(
      new LookupEventsCommand({
        LookupAttributes: [{ AttributeKey: "EventName", AttributeValue: "CreateBucket" }],
      }),
    );
    expect(fromManagement.Events).toEqual([]);

    const future = await ct.send(
      new LookupEventsCommand({
        StartTime: new Date(Date.now() + 3_600_000),
        EndTime: new Date(Date.now() + 7_200_000),
      }),
    );
    expect(future.Events).toEqual([]);
  });
});

// biome-ignore-all lint/suspicious/noThenProperty: Azure policy rules are { if, then } objects.
import { CloudTrailClient, LookupEventsCommand } from "@aws-sdk/client-cloudtrail";
import {
  AttachPolicyCommand,
  CreatePolicyCommand,
  DescribeOrganizationCommand,
  ListOrganizationalUnitsForParentCommand,
  ListRootsCommand,
  type OrganizationsClient,
} from "@aws-sdk/client-organizations";
import { ManagementGroupsAPI } from "@azure/arm-managementgroups";
import { MonitorClient } from "@azure/arm-monitor";
import { PolicyClient } from "@azure/arm-policy";
import { ResourceManagementClient } from "@azure/arm-resources";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_ACTIVITY_LOG_LAG_MS } from "../src/azure/activity-log";
import { type Harness, startHarness } from "./sandbox-harness";

let h: Harness;
let org: OrganizationsClient;
beforeAll(async () => {
  h = await startHarness();
  org = await h.connectorOrganizations();
});
afterAll(() => h.stop());

async function ouId(name: string): Promise<string> {
  const { Roots } = await org.send(new ListRootsCommand({}));
  const queue = [Roots![0]!.Id!];
  while (queue.length) {
    const { OrganizationalUnits } = await org.send(
      new ListOrganizationalUnitsForParentCommand({ ParentId: queue.shift()! }),
    );
    for (const ou of OrganizationalUnits ?? []) {
      if (ou.Name === name) return ou.Id!;
      queue.push(ou.Id!);
    }
  }
  throw new Error(`no OU ${name}`);
}

async function createScp(name: string, statements: unknown[], targetId: string): Promise<string> {
  const out = await org.send(
    new CreatePolicyCommand({
      Name: name,
      Description: name,
      Type: "SERVICE_CONTROL_POLICY",
      Content: JSON.stringify({ Version: "2012-10-17", Statement: statements }),
    }),
  );
  await org.send(new AttachPolicyCommand({ PolicyId: out.Policy!.PolicySummary!.Id!, TargetId: targetId }));
  return out.Policy!.PolicySummary!.Id!;
}

/** A record read back with LookupEvents as the account it belongs to, in its Region. */
async function lookupRecord(account: string, region: string, eventId: string) {
  const key = (await h.post("/sandbox/control/access-key", { account, principal: "user/carol" })).body as {
    accessKeyId: string;
    secretAccessKey: string;
  };
  const ct = new CloudTrailClient({ endpoint: h.cloud.aws.endpoint, region, credentials: key });
  const { Events } = await ct.send(
    new LookupEventsCommand({ LookupAttributes: [{ AttributeKey: "EventId", AttributeValue: eventId }] }),
  );
  expect(Events, `event ${eventId} in ${account}/${region}`).toHaveLength(1);
  return JSON.parse(Events![0]!.CloudTrailEvent!) as Record<string, unknown> & {
    userIdentity: Record<string, unknown> & { arn: string; principalId: string };
  };
}

const tryAws = (body: Record<string, unknown>) => h.post("/sandbox/try", { provider: "aws", ...body });
const tryAzure = (body: Record<string, unknown>) => h.post("/sandbox/try", { provider: "azure", ...body });

describe("AWS enforcement", () => {
  it("denies a launch without IMDSv2 with the provider's message, only below the OU the SCP is attached to", async () => {
    const policyId = await createScp(
      "pal-require-imdsv2",
      [
        {
          Sid: "PalK7QX2MA",
          Effect: "Deny",
          Action: "ec2:RunInstances",
          Resource: "arn:aws:ec2:*:*:instance/*",
          Condition: { StringNotEquals: { "ec2:MetadataHttpTokens": "required" } },
        },
      ],
      await ouId("Workloads-Dev"),
    );
    const orgId = (await org.send(new DescribeOrganizationCommand({}))).Organization!.Id!;
    const denied = await tryAws({
      account: "payments-dev",
      principal: "user/alice",
      action: "ec2:RunInstances",
      resource: "arn:aws:ec2:us-east-1:*:instance/*",
      context: { "ec2:MetadataHttpTokens": "optional" },
    });
    expect(denied.status).toBe(403);
    // EC2's denial: UnauthorizedOperation with an encoded authorization message
    // (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/errors-overview.html), naming the SCP.
    const error = denied.body.error as { Code: string; Message: string };
    expect(error.Code).toBe("UnauthorizedOperation");
    expect(error.Message).toMatch(
      new RegExp(
        `^You are not authorized to perform this operation\\. User: arn:aws:iam::\\d{12}:user/alice is not authorized to perform: ec2:RunInstances on resource: arn:aws:ec2:us-east-1:\\*:instance/\\* with an explicit deny in a service control policy: arn:aws:organizations::${h.cloud.aws.managementAccountId}:policy/${orgId}/service_control_policy/${policyId}\\. Encoded authorization failure message: [A-Za-z0-9_-]+$`,
      ),
    );

    const compliant = await tryAws({
      account: "payments-dev",
      principal: "user/alice",
      action: "ec2:RunInstances",
      resource: "arn:aws:ec2:us-east-1:*:instance/*",
      context: { "ec2:MetadataHttpTokens": "required" },
    });
    expect(compliant.status).toBe(200);
    for (const account of ["payments-prod", "management"]) {
      const elsewhere = await tryAws({
        account,
        principal: "role/Admin",
        action: "ec2:RunInstances",
        resource: "*",
        context: { "ec2:MetadataHttpTokens": "optional" },
      });
      expect(elsewhere.body.allowed).toBe(true);
    }

    const record = await lookupRecord("payments-dev", "us-east-1", String(denied.body.eventId));
    // https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-event-reference-record-contents.html
    expect(record).toMatchObject({
      eventName: "RunInstances",
      eventSource: "ec2.amazonaws.com",
      awsRegion: "us-east-1",
      errorCode: "Client.UnauthorizedOperation",
      errorMessage: error.Message,
      requestParameters: {
        instancesSet: { items: [{ minCount: 1, maxCount: 1 }] },
        instanceType: "t3.micro",
        metadataOptions: { httpTokens: "optional" },
      },
      userIdentity: { type: "IAMUser", userName: "alice" },
    });
    expect(JSON.stringify(record.requestParameters)).not.toMatch(/ec2:|aws:/);
    expect(record.resources).toBeUndefined();
    expect(record.userIdentity.arn).toMatch(/user\/alice$/);
  });

  it("records each API in its own shape: sessions of roles, per-principal ids, each service's error code", async () => {
    const policyId = await createScp(
      "pal-protect-s3-account-pab",
      [
        {
          Sid: "PalPab",
          Effect: "Deny",
          Action: ["s3:PutAccountPublicAccessBlock", "iam:CreateUser"],
          Resource: "*",
        },
      ],
      await ouId("Sandbox"),
    );
    const pab = await tryAws({
      account: "sandbox-alice",
      principal: "role/Developer",
      action: "s3:PutAccountPublicAccessBlock",
      resource: "*",
      region: "eu-west-1",
    });
    expect(pab.body.error).toMatchObject({ Code: "AccessDenied" });
    const message = (pab.body.error as { Message: string }).Message;
    expect(message).toMatch(
      /^User: arn:aws:sts::\d{12}:assumed-role\/Developer\/[\w+=,.@-]+ is not authorized to perform: s3:PutAccountPublicAccessBlock on resource: "\*" with an explicit deny in a service control policy: arn:aws:organizations::\d{12}:policy\/o-[a-z0-9]+\/service_control_policy\//,
    );
    expect(message).toContain(policyId);
    const denied = await lookupRecord("sandbox-alice", "eu-west-1", String(pab.body.eventId));
    expect(denied).toMatchObject({
      eventSource: "s3.amazonaws.com",
      eventName: "PutAccountPublicAccessBlock",
      errorCode: "AccessDenied",
      errorMessage: message,
      requestParameters: {
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          IgnorePublicAcls: true,
          BlockPublicPolicy: true,
          RestrictPublicBuckets: true,
        },
      },
      userIdentity: {
        type: "AssumedRole",
        sessionContext: { sessionIssuer: { type: "Role", userName: "Developer" } },
      },
    });
    const issuer = (
      denied.userIdentity as unknown as {
        sessionContext: { sessionIssuer: { arn: string; principalId: string } };
      }
    ).sessionContext.sessionIssuer;
    expect(issuer.arn).toMatch(/^arn:aws:iam::\d{12}:role\/Developer$/);
    expect(denied.userIdentity.principalId).toMatch(new RegExp(`^${issuer.principalId}:[\\w+=,.@-]+$`));
    expect(issuer.principalId).toMatch(/^AROA[A-Z2-7]{17}$/);

    // IAM is global: its events are recorded in us-east-1 whatever the caller's Region.
    const users = await Promise.all(
      ["alice", "bob"].map((user) =>
        tryAws({
          account: "sandbox-alice",
          principal: `user/${user}`,
          action: "iam:CreateUser",
          resource: `svc-${user}`,
          region: "eu-west-1",
        }),
      ),
    );
    const [byAlice, byBob] = await Promise.all(
      users.map((u) => lookupRecord("sandbox-alice", "us-east-1", String(u.body.eventId))),
    );
    expect(byAlice).toMatchObject({
      eventSource: "iam.amazonaws.com",
      errorCode: "AccessDenied",
      requestParameters: { userName: "svc-alice" },
    });
    expect(byAlice!.userIdentity.principalId).toMatch(/^AIDA[A-Z2-7]{17}$/);
    expect(byAlice!.userIdentity.principalId).not.toBe(byBob!.userIdentity.principalId);

    const kms = await tryAws({
      account: "sandbox-alice",
      principal: "user/alice",
      action: "kms:CreateKey",
      resource: "*",
      region: "eu-west-1",
    });
    expect(kms.body.allowed).toBe(true);
    await createScp(
      "pal-deny-kms",
      [{ Effect: "Deny", Action: "kms:*", Resource: "*" }],
      await ouId("Sandbox"),
    );
    const kmsDenied = await tryAws({
      account: "sandbox-alice",
      principal: "user/alice",
      action: "kms:CreateKey",
      resource: "*",
      region: "eu-west-1",
    });
    expect(kmsDenied.body.error).toMatchObject({
      __type: "AccessDeniedException",
      Code: "AccessDeniedException",
    });
    expect(await lookupRecord("sandbox-alice", "eu-west-1", String(kmsDenied.body.eventId))).toMatchObject({
      errorCode: "AccessDeniedException",
      requestParameters: { keySpec: "SYMMETRIC_DEFAULT", keyUsage: "ENCRYPT_DECRYPT" },
    });
  });

  it("gives a principal the organisation path of its account, so an OU exception in an SCP applies", async () => {
    const prod = await ouId("Workloads-Prod");
    await createScp(
      "pal-ou-exception",
      [
        {
          Sid: "PalOuException",
          Effect: "Deny",
          Action: "s3:PutAccountPublicAccessBlock",
          Resource: "*",
          // As AWS documents aws:PrincipalOrgPaths: "o-xxx/r-xxx/ou-xxx/.../" for each path.
          Condition: { "ForAllValues:StringNotLike": { "aws:PrincipalOrgPaths": [`*/${prod}/*`] } },
        },
      ],
      await ouId("Workloads"),
    );
    const attempt = (account: string) =>
      tryAws({ account, principal: "role/Admin", action: "s3:PutAccountPublicAccessBlock", resource: "*" });
    expect((await attempt("payments-prod")).status).toBe(200);
    expect((await attempt("payments-dev")).status).toBe(403);
  });

  it("lets a time-bounded SCP exception through until aws:CurrentTime passes its end", async () => {
    const accountOf = async (name: string) => {
      const out = await tryAws({
        account: name,
        principal: "user/alice",
        action: "s3:ListBucket",
        resource: "*",
      });
      return String(out.body.principal).split(":")[4]!;
    };
    const sandboxAccount = await accountOf("sandbox-alice");
    const now = (await h.post("/sandbox/control/clock", {})).body.now as string;
    const until = new Date(Date.parse(now) + 3_600_000).toISOString().replace(/\.\d{3}Z$/, "Z");
    await createScp(
      "pal-no-public-acl",
      [
        {
          Sid: "PalP9ACL01",
          Effect: "Deny",
          Action: "s3:PutBucketAcl",
          Resource: "*",
          Condition: { StringNotEquals: { "aws:PrincipalArn": `arn:aws:iam::${sandboxAccount}:user/alice` } },
        },
        {
          Sid: "PalP9ACL01Expiry",
          Effect: "Deny",
          Action: "s3:PutBucketAcl",
          Resource: "*",
          Condition: { DateGreaterThan: { "aws:CurrentTime": until } },
        },
      ],
      await ouId("Sandbox"),
    );
    const put = (principal: string) =>
      tryAws({
        account: "sandbox-alice",
        principal,
        action: "s3:PutBucketAcl",
        resource: "*",
        context: { "s3:x-amz-acl": "public-read" },
      });
    expect((await put("user/alice")).status).toBe(200);
    expect((await put("user/bob")).status).toBe(403);
    await h.post("/sandbox/control/clock", { advanceSeconds: 7200 });
    const expired = await put("user/alice");
    expect(expired.status).toBe(403);
    expect((expired.body.policy as { sid: string }).sid).toBe("PalP9ACL01Expiry");
  });
});

async function subscriptionsByName(): Promise<Map<string, string>> {
  const mg = new ManagementGroupsAPI(h.azureCredential, h.armOptions);
  const out = new Map<string, string>();
  for await (const d of mg.managementGroups.listDescendants(h.cloud.azure.rootManagementGroupId)) {
    if (d.type === "Microsoft.Management/managementGroups/subscriptions") out.set(d.displayName!, d.name!);
  }
  return out;
}

const storageRule = {
  if: {
    allOf: [
      { field: "type", equals: "Microsoft.Storage/storageAccounts" },
      { field: "Microsoft.Storage/storageAccounts/supportsHttpsTrafficOnly", notEquals: true },
    ],
  },
  then: { effect: "[parameters('effect')]" },
};

describe("Azure enforcement", () => {
  it("denies with RequestDisallowedByPolicy below the assignment, honours notScopes and exemptions until expiresOn", async () => {
    const subs = await subscriptionsByName();
    const corpProd = subs.get("corp-prod")!;
    const policy = new PolicyClient(h.azureCredential, corpProd, h.armOptions);
    const definition = await policy.policyDefinitions.createOrUpdateAtManagementGroup(
      h.cloud.azure.rootManagementGroupId,
      "pal-https",
      {
        displayName: "Storage accounts require HTTPS",
        mode: "Indexed",
        policyRule: storageRule,
        parameters: { effect: { type: "String", defaultValue: "Deny" } },
      },
    );
    const corp = "/providers/Microsoft.Management/managementGroups/corp";
    const assignment = await policy.policyAssignments.create(corp, "pal-https-corp", {
      displayName: "HTTPS storage (corp)",
      policyDefinitionId: definition.id!,
      parameters: { effect: { value: "Deny" } },
      notScopes: [`/subscriptions/${subs.get("corp-dev")}`],
      nonComplianceMessages: [
        { message: "Storage must use HTTPS only. Policy key K7QX2MA: request a waiver at /req?k=K7QX2MA" },
      ],
    });
    const storage = (sub: string, name: string) =>
      `/subscriptions/${sub}/resourceGroups/rg-${[...subs].find(([, id]) => id === sub)![0]}-data/providers/Microsoft.Storage/storageAccounts/${name}`;
    const insecure = { "properties.supportsHttpsTrafficOnly": "false", kind: "StorageV2" };
    await h.propagate();

    const denied = await tryAzure({
      principal: "alice",
      action: "write",
      resource: storage(corpProd, "stinsecure1"),
      context: insecure,
    });
    expect(denied.status).toBe(403);
    const error = denied.body.error as {
      code: string;
      message: string;
      additionalInfo: { type: string; info: Record<string, unknown> }[];
    };
    expect(error.code).toBe("RequestDisallowedByPolicy");
    expect(error.message).toBe(
      "Resource 'stinsecure1' was disallowed by policy. Reasons: 'Storage must use HTTPS only. Policy key K7QX2MA: request a waiver at /req?k=K7QX2MA'. See error details for policy resource IDs.",
    );
    expect(error.additionalInfo[0]).toMatchObject({
      type: "PolicyViolation",
      info: {
        policyAssignmentId: assignment.id,
        policyDefinitionId: definition.id,
        policyDefinitionEffect: "deny",
      },
    });

    const secure = await tryAzure({
      principal: "alice",
      action: "write",
      resource: storage(corpProd, "stsecure1"),
      context: { "properties.supportsHttpsTrafficOnly": "true" },
    });
    expect(secure.status).toBe(200);
    const outside = await tryAzure({
      principal: "alice",
      action: "write",
      resource: storage(subs.get("online-prod")!, "stonline1"),
      context: insecure,
    });
    expect(outside.status).toBe(200);
    const excluded = await tryAzure({
      principal: "alice",
      action: "write",
      resource: storage(subs.get("corp-dev")!, "stcorpdev1"),
      context: insecure,
    });
    expect(excluded.status).toBe(200);

    const rgScope = storage(corpProd, "x").split("/providers/")[0]!;
    const now = Date.parse((await h.post("/sandbox/control/clock", {})).body.now as string);
    const rm = new ResourceManagementClient(h.azureCredential, corpProd, h.armOptions);
    await rm.resources.createOrUpdateById(
      `${rgScope}/providers/Microsoft.Authorization/policyExemptions/pal-waiver-1`,
      "2022-07-01-preview",
      {
        properties: {
          policyAssignmentId: assignment.id,
          exemptionCategory: "Waiver",
          expiresOn: new Date(now + 3_600_000).toISOString(),
        },
      },
    );
    await h.propagate();
    const waived = await tryAzure({
      principal: "alice",
      action: "write",
      resource: storage(corpProd, "stinsecure1"),
      context: insecure,
    });
    expect(waived.status).toBe(200);
    await h.post("/sandbox/control/clock", { advanceSeconds: 2 * 3600 });
    const again = await tryAzure({
      principal: "alice",
      action: "write",
      resource: storage(corpProd, "stinsecure2"),
      context: insecure,
    });
    expect(again.status).toBe(403);
    // Activity Log events are listed once submitted, up to the sandbox's lag after they happen.
    await h.post("/sandbox/control/clock", { advanceSeconds: DEFAULT_ACTIVITY_LOG_LAG_MS / 1000 });

    const monitor = new MonitorClient(h.azureCredential, corpProd, {
      ...h.armOptions,
      baseUri: h.cloud.azure.armEndpoint,
    });
    const events = [];
    const from = new Date(now - 3_600_000).toISOString();
    for await (const e of monitor.activityLogs.list(`eventTimestamp ge '${from}' and status eq 'Failed'`))
      events.push(e);
    const failed = events.find((e) => e.correlationId === again.body.correlationId);
    expect(failed).toMatchObject({
      operationName: { value: "Microsoft.Storage/storageAccounts/write" },
      status: { value: "Failed" },
      caller: "alice@contoso.example",
    });
    expect(JSON.parse(failed!.properties!.statusMessage!).error.code).toBe("RequestDisallowedByPolicy");
  });

  it("enforces the same assignments on ARM resource PUTs made with an SDK", async () => {
    const subs = await subscriptionsByName();
    const onlineDev = subs.get("online-dev")!;
    const policy = new PolicyClient(h.azureCredential, onlineDev, h.armOptions);
    const definition = await policy.policyDefinitions.createOrUpdate("pal-https-arm", {
      mode: "Indexed",
      policyRule: storageRule,
      parameters: { effect: { type: "String", defaultValue: "Deny" } },
    });
    await policy.policyAssignments.create(`/subscriptions/${onlineDev}`, "pal-https-arm", {
      policyDefinitionId: definition.id!,
      nonComplianceMessages: [{ message: "Use HTTPS" }],
    });
    await h.propagate();
    const rm = new ResourceManagementClient(h.azureCredential, onlineDev, h.armOptions);
    const id = (name: string) =>
      `/subscriptions/${onlineDev}/resourceGroups/rg-online-dev-data/providers/Microsoft.Storage/storageAccounts/${name}`;
    const denied = await rm.resources
      .createOrUpdateById(id("starmdenied"), "2023-05-01", {
        location: "eastus2",
        kind: "StorageV2",
        properties: { supportsHttpsTrafficOnly: false },
      })
      .catch((e: { code?: string; statusCode?: number; message?: string }) => e);
    expect(denied).toMatchObject({ code: "RequestDisallowedByPolicy", statusCode: 403 });
    expect((denied as { message: string }).message).toContain("Reasons: 'Use HTTPS'");

    await rm.resources.createOrUpdateById(id("starmok"), "2023-05-01", {
      location: "eastus2",
      kind: "StorageV2",
      properties: { supportsHttpsTrafficOnly: true },
    });
    const created = await rm.resources.getById(id("starmok"), "2023-05-01");
    expect(created.properties).toMatchObject({ supportsHttpsTrafficOnly: true });
    await rm.resources.deleteById(id("starmok"), "2023-05-01");
    await expect(rm.resources.getById(id("starmok"), "2023-05-01")).rejects.toMatchObject({
      statusCode: 404,
    });
  });

  it("records audit policy states and lets the change through for an Audit assignment", async () => {
    const subs = await subscriptionsByName();
    const sandboxSub = subs.get("sandbox-01")!;
    const policy = new PolicyClient(h.azureCredential, sandboxSub, h.armOptions);
    const definition = await policy.policyDefinitions.createOrUpdate("pal-https-audit", {
      mode: "Indexed",
      policyRule: storageRule,
      parameters: { effect: { type: "String", defaultValue: "Audit" } },
    });
    const before = `/subscriptions/${sandboxSub}/resourceGroups/rg-sandbox-01-app/providers/Microsoft.Storage/storageAccounts/stbefore1`;
    const created = await tryAzure({
      principal: "bob",
      action: "write",
      resource: before,
      context: { "properties.supportsHttpsTrafficOnly": false },
    });
    expect(created.status).toBe(200);
    const assignment = await policy.policyAssignments.create(
      `/subscriptions/${sandboxSub}`,
      "pal-https-audit",
      {
        policyDefinitionId: definition.id!,
        parameters: { effect: { value: "Audit" } },
      },
    );
    await h.propagate();
    const resource = `/subscriptions/${sandboxSub}/resourceGroups/rg-sandbox-01-data/providers/Microsoft.Storage/storageAccounts/staudited1`;
    const out = await tryAzure({
      principal: "ci-pipeline",
      action: "write",
      resource,
      context: { "properties.supportsHttpsTrafficOnly": false },
    });
    expect(out.status).toBe(200);
    expect(out.body.audits).toEqual([assignment.id]);

    const states = await h.arm(
      "POST",
      `/subscriptions/${sandboxSub}/providers/Microsoft.PolicyInsights/policyStates/latest/queryResults?api-version=2019-10-01&$filter=${encodeURIComponent("complianceState eq 'NonCompliant'")}`,
    );
    expect(states.status).toBe(200);
    const value = states.body.value as {
      resourceId: string;
      policyAssignmentId: string;
      policyDefinitionAction: string;
    }[];
    expect(value).toContainEqual(
      expect.objectContaining({
        resourceId: resource,
        policyAssignmentId: assignment.id,
        policyDefinitionAction: "audit",
      }),
    );
    // The compliance scan on assignment reports what already existed.
    expect(value).toContainEqual(
      expect.objectContaining({ resourceId: before, policyAssignmentId: assignment.id }),
    );
    const compliant = await h.arm(
      "POST",
      `/subscriptions/${sandboxSub}/providers/Microsoft.PolicyInsights/policyStates/latest/queryResults?api-version=2019-10-01&$filter=${encodeURIComponent("complianceState eq 'Compliant'")}`,
    );
    const types = (compliant.body.value as { resourceType: string }[]).map((v) => v.resourceType);
    expect(types).toContain("Microsoft.Storage/storageAccounts");
    expect(types).toContain("Microsoft.Compute/virtualMachines");
  });
});

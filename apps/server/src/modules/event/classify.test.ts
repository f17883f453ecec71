import { describe, expect, it } from "vitest";
import type { AuditRecord } from "../../cloud/cloud-provider";
import { classifyAudit } from "./classify";
import { armResourceParts } from "./classify-azure";
import { latestCompliance } from "./classify-compliance";
import type { ClassifyContext, DeploymentInfo } from "./classify-context";
import { displayUserName } from "./display-user-name";

const ACCOUNT = "111122223333";
const OU = "ou-ab12-11111111";
const ROOT = "r-ab12";
const SCP_DOC = JSON.stringify({
  Version: "2012-10-17",
  Statement: [
    { Sid: "PalisadeKEYAAAAS0", Effect: "Deny", Action: "organizations:LeaveOrganization", Resource: "*" },
  ],
});

function deployment(overrides: Partial<DeploymentInfo>): DeploymentInfo {
  return {
    id: "dep-1",
    bundleId: "bundle-1",
    key: "KEYAAAA",
    name: "No exits",
    namespace: null,
    mode: "PREVENT",
    nativeId: "p-abc123",
    scopeExternalId: OU,
    excludedScopes: [],
    affectedResourceTypes: [],
    scp: { id: "p-abc123", arn: "", name: "palisade-KEYAAAA", document: SCP_DOC },
    ...overrides,
  };
}

function awsContext(
  deployments: DeploymentInfo[],
  waivers: ClassifyContext["waivers"] = [],
): ClassifyContext {
  const parents: Record<string, string> = { [ACCOUNT]: OU, [OU]: ROOT };
  return {
    tenantId: "t1",
    provider: "aws",
    deployments,
    waivers,
    ancestorsOf: (id) => {
      const chain = [id];
      while (parents[chain.at(-1) as string]) chain.push(parents[chain.at(-1) as string] as string);
      return chain;
    },
    consoleLinks: false,
  };
}

const AT = new Date("2026-06-01T12:00:00Z");

function trail(detail: Record<string, unknown>, id = "evt-1"): AuditRecord {
  const body: Record<string, unknown> & { userIdentity: { type: string; arn: string; userName: string } } = {
    eventTime: "2026-06-01T12:00:00Z",
    awsRegion: "us-east-1",
    recipientAccountId: ACCOUNT,
    userIdentity: { type: "IAMUser", arn: `arn:aws:iam::${ACCOUNT}:user/alice`, userName: "alice" },
    requestParameters: {},
    resources: [],
    ...detail,
  };
  return {
    id,
    time: AT,
    action: "organizations:LeaveOrganization",
    principal: body.userIdentity.arn,
    scopeId: ACCOUNT,
    errorCode: body.errorCode as string | undefined,
    errorMessage: body.errorMessage as string | undefined,
    raw: { EventId: id, CloudTrailEvent: JSON.stringify(body) },
  };
}

const DENY_MESSAGE = `User: arn:aws:iam::${ACCOUNT}:user/alice is not authorized to perform: organizations:LeaveOrganization on resource: * with an explicit deny in a service control policy: arn:aws:organizations::999988887777:policy/o-abc/service_control_policy/p-abc123`;

describe("classifyAudit on CloudTrail", () => {
  it.each([
    [
      "denied by a Palisade SCP",
      [deployment({})],
      { errorCode: "AccessDenied", errorMessage: DENY_MESSAGE },
      ["PREVENTION"],
    ],
    [
      "denied by an SCP Palisade does not manage",
      [deployment({ nativeId: "p-other" })],
      { errorCode: "AccessDenied", errorMessage: DENY_MESSAGE },
      [],
    ],
    [
      "denied for lack of an allow",
      [deployment({})],
      { errorCode: "AccessDenied", errorMessage: "because no service control policy allows the action" },
      [],
    ],
    [
      "allowed where an ALERT bundle would deny",
      [deployment({ mode: "ALERT", nativeId: null })],
      {},
      ["ALERT"],
    ],
    [
      "allowed in an account outside the bundle's scopes",
      [deployment({ mode: "ALERT", scopeExternalId: "ou-other" })],
      {},
      [],
    ],
    [
      "allowed in an excluded scope",
      [deployment({ mode: "ALERT", scopeExternalId: ROOT, excludedScopes: [OU] })],
      {},
      [],
    ],
    ["allowed under PREVENT without a waiver", [deployment({})], {}, []],
  ])("%s", (_name, deployments, detail, expected) => {
    const events = classifyAudit(trail(detail), awsContext(deployments));
    expect(events.map((e) => e.type)).toEqual(expected);
  });

  it("records a PREVENT bundle's allowed request as waived only while a matching waiver was in force", () => {
    const waiver: ClassifyContext["waivers"][number] = {
      deploymentId: "dep-1",
      from: new Date("2026-06-01T11:00:00Z"),
      until: new Date("2026-06-01T13:00:00Z"),
      scope: null,
      resource: null,
      principalArn: `arn:aws:iam::${ACCOUNT}:user/alice`,
    };
    const classify = (w: typeof waiver) =>
      classifyAudit(trail({}), awsContext([deployment({})], [w])).map((e) => e.type);
    expect(classify(waiver)).toEqual(["WAIVED"]);
    expect(classify({ ...waiver, until: new Date("2026-06-01T12:00:00Z") })).toEqual([]);
    expect(classify({ ...waiver, from: new Date("2026-06-01T12:30:00Z") })).toEqual([]);
    expect(classify({ ...waiver, principalArn: `arn:aws:iam::${ACCOUNT}:user/bob` })).toEqual([]);
    expect(classify({ ...waiver, principalArn: null, scope: OU })).toEqual(["WAIVED"]);
  });

  it("describes who did it and to what", () => {
    const [event] = classifyAudit(
      trail({
        errorCode: "AccessDenied",
        errorMessage: DENY_MESSAGE,
        userAgent: "console.amazonaws.com",
        resources: [{ ARN: "arn:aws:s3:::payments-logs", accountId: ACCOUNT, type: "AWS::S3::Bucket" }],
      }),
      awsContext([deployment({})]),
    );
    expect(event).toMatchObject({
      providerEventId: "evt-1:dep-1",
      resourceExternalId: "arn:aws:s3:::payments-logs",
      resourceName: "payments-logs",
      resourceNativeType: "AWS::S3::Bucket",
      resourceScope: ACCOUNT,
      userName: "alice",
      userType: "USER",
      sourceAppName: "AWS Management Console",
      deploymentName: "No exits",
      occurredAt: AT,
    });
  });
});

const SUB = "/subscriptions/00000000-0000-0000-0000-000000000001";
const ASSIGNMENT = `${SUB}/providers/Microsoft.Authorization/policyAssignments/palisade-AZKEY42-abc123`;
const STORAGE = `${SUB}/resourceGroups/rg-data/providers/Microsoft.Storage/storageAccounts/st1`;

function azureContext(
  deployments: DeploymentInfo[],
  waivers: ClassifyContext["waivers"] = [],
): ClassifyContext {
  return {
    tenantId: "t1",
    provider: "azure",
    deployments,
    waivers,
    ancestorsOf: (id) => [id],
    consoleLinks: false,
  };
}

const azureDeployment = (overrides: Partial<DeploymentInfo> = {}) =>
  deployment({
    key: "AZKEY42",
    nativeId: ASSIGNMENT,
    scopeExternalId: SUB,
    scp: undefined,
    affectedResourceTypes: ["Microsoft.Storage/storageAccounts"],
    ...overrides,
  });

function activity(raw: Record<string, unknown>, extra: Partial<AuditRecord> = {}): AuditRecord {
  return {
    id: "act-1",
    time: AT,
    action: (raw.operationName as { value: string }).value,
    principal: raw.caller as string,
    scopeId: "00000000-0000-0000-0000-000000000001",
    errorCode: undefined,
    errorMessage: undefined,
    raw: { resourceId: STORAGE, ...raw },
    ...extra,
  };
}

describe("classifyAudit on the Activity Log", () => {
  const denied = activity(
    {
      operationName: { value: "Microsoft.Storage/storageAccounts/write" },
      caller: "alice@contoso.example",
      properties: {
        statusMessage: JSON.stringify({
          error: {
            code: "RequestDisallowedByPolicy",
            additionalInfo: [{ type: "PolicyViolation", info: { policyAssignmentId: ASSIGNMENT } }],
          },
        }),
      },
    },
    { errorCode: "RequestDisallowedByPolicy" },
  );
  const audited = activity({
    operationName: { value: "Microsoft.Authorization/policies/audit/action" },
    caller: "0c3f7b9a-1d2e-4f5a-8b6c-7d8e9f0a1b2c",
    properties: { policies: JSON.stringify([{ policyAssignmentId: ASSIGNMENT }]) },
  });
  const written = activity({
    operationName: { value: "Microsoft.Storage/storageAccounts/write" },
    status: { value: "Succeeded" },
    caller: "bob@contoso.example",
  });
  const waiver = {
    deploymentId: "dep-1",
    from: new Date("2026-06-01T00:00:00Z"),
    until: new Date("2026-06-02T00:00:00Z"),
    scope: null,
    resource: STORAGE,
    principalArn: null,
  };

  it.each([
    ["RequestDisallowedByPolicy of a Palisade assignment", denied, [azureDeployment()], [], ["PREVENTION"]],
    [
      "RequestDisallowedByPolicy of another assignment",
      denied,
      [azureDeployment({ nativeId: "x", key: "OTHERKY" })],
      [],
      [],
    ],
    ["an audit of an ALERT assignment", audited, [azureDeployment({ mode: "ALERT" })], [], ["ALERT"]],
    ["an audit of a PREVENT assignment", audited, [azureDeployment()], [], []],
    ["a write covered by a waiver", written, [azureDeployment()], [waiver], ["WAIVED"]],
    ["a write without a waiver", written, [azureDeployment()], [], []],
    [
      "a write of a type the policy does not govern",
      written,
      [azureDeployment({ affectedResourceTypes: ["Microsoft.Network/publicIPAddresses"] })],
      [waiver],
      [],
    ],
  ])("%s", (_name, record, deployments, waivers, expected) => {
    expect(classifyAudit(record, azureContext(deployments, waivers)).map((e) => e.type)).toEqual(expected);
  });

  it("knows a service principal by its client id", () => {
    const [event] = classifyAudit(audited, azureContext([azureDeployment({ mode: "ALERT" })]));
    expect(event?.userType).toBe("APPLICATION");
    expect(event?.resourceName).toBe("st1");
    expect(event?.resourceScope).toBe(`${SUB}/resourceGroups/rg-data`);
  });
});

describe("latestCompliance", () => {
  it("keeps the newest state of each resource under each Palisade assignment", () => {
    const ctx = azureContext([azureDeployment()]);
    const state = (compliant: boolean, time: string, assignment = ASSIGNMENT) => ({
      resourceId: STORAGE,
      policyAssignmentId: assignment,
      policyDefinitionId: "d",
      compliant,
      time: new Date(time),
      subscriptionId: undefined,
    });
    const findings = latestCompliance(
      [
        state(false, "2026-06-01T10:00:00Z"),
        state(true, "2026-06-01T11:00:00Z"),
        state(
          false,
          "2026-06-01T12:00:00Z",
          `${SUB}/providers/Microsoft.Authorization/policyAssignments/not-ours`,
        ),
      ],
      ctx,
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]?.compliant).toBe(true);
  });
});

describe("displayUserName", () => {
  it.each([
    ["", "", "Unknown User"],
    [null, "someone", "Unknown User"],
    ["   ", undefined, "Unknown User"],
    ["0c3f7b9a-1d2e-4f5a-8b6c-7d8e9f0a1b2c", "", "Auto-Service 0c3f..."],
    ["0c3f7b9a-1d2e-4f5a-8b6c-7d8e9f0a1b2c", "0c3f7b9a-1d2e-4f5a-8b6c-7d8e9f0a1b2c", "Auto-Service 0c3f..."],
    ["0c3f7b9a-1d2e-4f5a-8b6c-7d8e9f0a1b2c", "ci-pipeline", "ci-pipeline"],
    ["arn:aws:iam::1:user/alice", "alice", "alice"],
    ["alice@contoso.example", "", "alice@contoso.example"],
  ])("%j / %j -> %s", (identifier, name, expected) => {
    const shown = displayUserName(identifier, name);
    expect(shown).toBe(expected);
    if (shown.startsWith("Auto-Service")) expect(shown).toHaveLength(20);
  });
});

describe("armResourceParts", () => {
  it.each([
    [STORAGE, `${SUB}/resourceGroups/rg-data`, "Microsoft.Storage/storageAccounts", "st1"],
    [`${SUB}/resourceGroups/rg-data`, `${SUB}/resourceGroups/rg-data`, null, "rg-data"],
  ])("%s", (id, scope, type, name) => {
    expect(armResourceParts(id)).toEqual({ scope, nativeType: type, name });
  });
});

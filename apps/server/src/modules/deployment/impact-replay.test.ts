// biome-ignore-all lint/suspicious/noThenProperty: Azure policy rules are { if, then } objects.
import type { Event } from "@aws-sdk/client-cloudtrail";
import type { AliasTable } from "@palisade/policy-engine/evaluators/azure/alias-table";
import type { ScpPolicy } from "@palisade/policy-engine/evaluators/scp/evaluate-scp";
import { waiverPrincipalPattern } from "@palisade/policy-engine/principals/principal-arn";
import { describe, expect, it } from "vitest";
import { catalogueScp, fixtureAudit, fixtureRecord } from "../../../test/support/cloudtrail-fixtures";
import { auditRecord } from "../../cloud/aws/cloudtrail-events";
import type { AuditRecord } from "../../cloud/cloud-provider";
import type { DeploymentInfo } from "../event/classify-context";
import { summariseRecords } from "../event/request-summary";
import pages from "./__fixtures__/lookup-events-pages.json";
import {
  type AwsReplayTarget,
  createTally,
  fieldsReadBy,
  replayActivityRecord,
  replayStoredRequest,
  topCounts,
} from "./impact-replay";

const PROD_ACCOUNT = "111122223333";
const DEV_ACCOUNT = "444455556666";
const MANAGEMENT = "999988887777";
const EXCLUDED_ACCOUNT = "777766665555";

/** root -> ou-prod -> PROD_ACCOUNT, EXCLUDED_ACCOUNT; root -> ou-dev -> DEV_ACCOUNT; the management account at the root. */
const PARENTS: Record<string, string> = {
  [PROD_ACCOUNT]: "ou-prod",
  [EXCLUDED_ACCOUNT]: "ou-prod",
  [DEV_ACCOUNT]: "ou-dev",
  [MANAGEMENT]: "r-root",
  "ou-prod": "r-root",
  "ou-dev": "r-root",
};
function ancestorsOf(id: string): string[] {
  const chain = [id];
  for (let at = PARENTS[id]; at; at = PARENTS[at]) chain.push(at);
  return chain;
}

/** Regional calls outside us-east-1 denied, IAM (global) exempted: the shape of the region guardrail. */
const regionScp: ScpPolicy = {
  id: "preview",
  arn: "",
  name: "preview",
  document: {
    Version: "2012-10-17",
    Statement: [
      {
        Sid: "P0000000RegionAllowList",
        Effect: "Deny",
        NotAction: ["iam:*", "organizations:*"],
        Resource: "*",
        Condition: { StringNotEquals: { "aws:RequestedRegion": ["us-east-1"] } },
      },
    ],
  },
};

/** A PREVENT guardrail already on ou-prod that denies changing bucket ACLs. */
const deployedAclGuardrail: DeploymentInfo = {
  id: "d-acl",
  bundleId: "b-acl",
  key: "ACLKEY7",
  name: "No bucket ACL changes",
  namespace: null,
  mode: "PREVENT",
  nativeId: "p-12345678",
  scopeExternalId: "ou-prod",
  excludedScopes: [],
  affectedResourceTypes: [],
  scp: {
    id: "p-12345678",
    arn: "",
    name: "palisade-ou-prod-0",
    document: {
      Version: "2012-10-17",
      Statement: [{ Sid: "ACLKEY7", Effect: "Deny", Action: "s3:PutBucketAcl", Resource: "*" }],
    },
  },
};

const recordedPages: AuditRecord[][] = (pages as { Events: Record<string, unknown>[] }[]).map((page) =>
  page.Events.map((event) =>
    auditRecord({ ...event, EventTime: new Date((event.EventTime as number) * 1000) } as Event),
  ),
);

function replayAws(target: Partial<AwsReplayTarget> = {}) {
  const tally = createTally();
  const full: AwsReplayTarget = {
    scp: regionScp,
    scopes: ["r-root"],
    excluded: [EXCLUDED_ACCOUNT],
    managementAccountId: MANAGEMENT,
    deployed: [deployedAclGuardrail],
    ancestorsOf,
    ...target,
  };
  // As stored at ingest (the management account left out there), replayed newest first.
  const stored = summariseRecords(recordedPages.flat(), MANAGEMENT).sort(
    (a, b) => b.lastSeenAt.getTime() - a.lastSeenAt.getTime(),
  );
  for (const request of stored) replayStoredRequest(request, full, tally);
  return tally;
}

describe("replaying recorded CloudTrail pages against a guardrail", () => {
  it("counts what the guardrail would deny that nothing denies today", () => {
    const tally = replayAws();
    // 1 ap-southeast-2, 5 eu-central-1, 9 sa-east-1.
    expect(tally.denied).toBe(3);
    // 3 was refused by the cloud; 8 is denied by the ACL guardrail already deployed on ou-prod.
    expect(tally.alreadyDenied).toBe(2);
    // Under the root, minus the management account (4) and the excluded account (6).
    expect(tally.evaluated).toBe(7);
    expect(tally.principals.size).toBe(3);
    expect(topCounts(tally.scopes)).toEqual([
      { value: PROD_ACCOUNT, count: 2 },
      { value: DEV_ACCOUNT, count: 1 },
    ]);
    expect(topCounts(tally.actions)).toEqual([
      { value: "ec2:RunInstances", count: 1 },
      { value: "rds:CreateDBInstance", count: 1 },
      { value: "s3:CreateBucket", count: 1 },
    ]);
    // Pages come newest first, and so do the samples.
    expect(tally.samples.map((s) => [s.action, s.principal.split("/").pop(), s.scopeId, s.resource])).toEqual(
      [
        ["ec2:RunInstances", "alice", PROD_ACCOUNT, "*"],
        ["s3:CreateBucket", "carol", DEV_ACCOUNT, "arn:aws:s3:::carol-data"],
        ["rds:CreateDBInstance", "bob", PROD_ACCOUNT, "*"],
      ],
    );
  });

  it.each([
    ["on one OU only", { scopes: ["ou-dev"] }, { denied: 1, alreadyDenied: 0, evaluated: 1 }],
    ["with the excluded account back in", { excluded: [] }, { denied: 4, alreadyDenied: 2, evaluated: 8 }],
    ["without the deployed guardrail", { deployed: [] }, { denied: 4, alreadyDenied: 1, evaluated: 7 }],
    [
      "with the deployed guardrail in ALERT mode (not attached)",
      { deployed: [{ ...deployedAclGuardrail, mode: "ALERT" as const }] },
      { denied: 4, alreadyDenied: 1, evaluated: 7 },
    ],
    [
      "with the deployed guardrail excluding the account",
      { deployed: [{ ...deployedAclGuardrail, excludedScopes: [PROD_ACCOUNT] }] },
      { denied: 4, alreadyDenied: 1, evaluated: 7 },
    ],
    [
      "on an account nobody used",
      { scopes: ["000000000000"] },
      { denied: 0, alreadyDenied: 0, evaluated: 0 },
    ],
  ])("%s", (_name, target, expected) => {
    const tally = replayAws(target);
    expect({ denied: tally.denied, alreadyDenied: tally.alreadyDenied, evaluated: tally.evaluated }).toEqual(
      expected,
    );
  });
});

// CloudTrail names a role session's role in userIdentity.sessionContext.sessionIssuer
// (https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-event-reference-user-identity.html),
// and aws:PrincipalArn is that role's ARN, path included
// (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-keys.html#condition-keys-principalarn).
describe("replaying role sessions against a guardrail with a waiver named from a session", () => {
  const ssoRole = `arn:aws:iam::${PROD_ACCOUNT}:role/aws-reserved/sso.amazonaws.com/AWSReservedSSO_Developer_0a1b2c3d`;
  const session = (role: string, name: string, issuer?: string): AuditRecord => ({
    id: `${role}-${name}`,
    time: new Date("2026-11-20T10:00:00Z"),
    action: "ec2:RunInstances",
    principal: `arn:aws:sts::${PROD_ACCOUNT}:assumed-role/${role}/${name}`,
    scopeId: PROD_ACCOUNT,
    errorCode: undefined,
    errorMessage: undefined,
    raw: {
      eventName: "RunInstances",
      awsRegion: "eu-central-1",
      recipientAccountId: PROD_ACCOUNT,
      userIdentity: {
        type: "AssumedRole",
        arn: `arn:aws:sts::${PROD_ACCOUNT}:assumed-role/${role}/${name}`,
        accountId: PROD_ACCOUNT,
        sessionContext: issuer ? { sessionIssuer: { type: "Role", arn: issuer, userName: role } } : undefined,
      },
    },
  });
  const waived: ScpPolicy = {
    ...regionScp,
    document: {
      Version: "2012-10-17",
      Statement: [
        {
          Effect: "Deny",
          NotAction: ["iam:*", "organizations:*"],
          Resource: "*",
          Condition: {
            StringNotEquals: { "aws:RequestedRegion": ["us-east-1"] },
            ArnNotLike: {
              "aws:PrincipalArn": waiverPrincipalPattern(
                `arn:aws:sts::${PROD_ACCOUNT}:assumed-role/AWSReservedSSO_Developer_0a1b2c3d/alice`,
              ),
            },
          },
        },
      ],
    },
  };

  it("lets every session of the waived role through and counts the others", () => {
    const tally = createTally();
    const target: AwsReplayTarget = {
      scp: waived,
      scopes: ["r-root"],
      excluded: [],
      managementAccountId: MANAGEMENT,
      deployed: [],
      ancestorsOf,
    };
    const records = [
      session("AWSReservedSSO_Developer_0a1b2c3d", "alice", ssoRole),
      session("AWSReservedSSO_Developer_0a1b2c3d", "bob", ssoRole),
      session("AWSReservedSSO_Developer_0a1b2c3d", "carol"),
      session("Admin", "alice", `arn:aws:iam::${PROD_ACCOUNT}:role/Admin`),
    ];
    // As stored at ingest, then replayed.
    for (const request of summariseRecords(records, MANAGEMENT)) replayStoredRequest(request, target, tally);
    expect(tally.evaluated).toBe(4);
    expect(tally.samples.map((s) => s.principal)).toEqual([`arn:aws:iam::${PROD_ACCOUNT}:role/Admin`]);
  });
});

describe("replaying Activity Log writes against an Azure rule", () => {
  const SUB = "11111111-2222-3333-4444-555555555555";
  const rg = `/subscriptions/${SUB}/resourceGroups/rg-app`;
  const write = (
    id: string,
    resource: string,
    more: { location?: string; errorCode?: string; operation?: string } = {},
  ): AuditRecord => ({
    id,
    time: new Date("2026-11-20T10:00:00Z"),
    action: more.operation ?? "Microsoft.Storage/storageAccounts/write",
    principal: "ana@contoso.example",
    scopeId: SUB,
    errorCode: more.errorCode,
    errorMessage: undefined,
    raw: {
      resourceId: resource,
      caller: "ana@contoso.example",
      properties: more.location ? { resourceLocation: more.location } : {},
    },
  });
  const storage = (name: string) => `${rg}/providers/Microsoft.Storage/storageAccounts/${name}`;
  const locationRule = {
    if: { not: { field: "location", in: "[parameters('allowedLocations')]" } },
    then: { effect: "deny" },
  };
  const httpsRule = {
    if: {
      allOf: [
        { field: "type", equals: "Microsoft.Storage/storageAccounts" },
        { field: "Microsoft.Storage/storageAccounts/supportsHttpsTrafficOnly", notEquals: true },
      ],
    },
    then: { effect: "deny" },
  };
  const records = [
    write("1", storage("inwesteurope"), { location: "westeurope" }),
    write("2", storage("ineastus"), { location: "eastus" }),
    write("3", storage("nolocation")),
    write("4", storage("refused"), { location: "westeurope", errorCode: "RequestDisallowedByPolicy" }),
    write("5", storage("deleted"), { operation: "Microsoft.Storage/storageAccounts/delete" }),
    write(
      "6",
      "/subscriptions/99999999-2222-3333-4444-555555555555/resourceGroups/rg-x/providers/Microsoft.Storage/storageAccounts/elsewhere",
      {
        location: "westeurope",
      },
    ),
  ];

  it.each([
    [
      "a rule on the location the record carries",
      locationRule,
      { denied: 1, alreadyDenied: 1, notEvaluable: 1, evaluated: 4 },
    ],
    [
      "a rule on a property the record does not carry",
      httpsRule,
      { denied: 0, alreadyDenied: 1, notEvaluable: 3, evaluated: 4 },
    ],
  ])("%s", (_name, policyRule, expected) => {
    const tally = createTally();
    const target = {
      policyRule,
      parameters: { allowedLocations: ["eastus"] },
      scopes: [`/subscriptions/${SUB}`],
      excluded: [],
      resourceTypes: ["Microsoft.Storage/storageAccounts"],
      aliases: {} as AliasTable,
      fields: fieldsReadBy(policyRule),
    };
    for (const record of records) replayActivityRecord(record, target, tally);
    expect({
      denied: tally.denied,
      alreadyDenied: tally.alreadyDenied,
      notEvaluable: tally.notEvaluable,
      evaluated: tally.evaluated,
    }).toEqual(expected);
    if (tally.denied > 0) {
      expect(tally.samples[0]).toMatchObject({
        principal: "ana@contoso.example",
        scopeId: `/subscriptions/${SUB}`,
        resource: storage("inwesteurope"),
      });
    }
  });
});

describe("replaying CloudTrail records as AWS writes them", () => {
  const launch = fixtureRecord("ec2RunInstancesAllowed");
  const params = launch.requestParameters ?? {};
  const { metadataOptions: _unused, ...withoutMetadata } = params;
  const records = [
    // Refused by the cloud already (EC2's Client.UnauthorizedOperation).
    fixtureAudit("ec2RunInstancesDenied"),
    // IMDSv2 required: allowed.
    fixtureAudit("ec2RunInstancesAllowed"),
    // IMDSv1, twice: denied twice, one stored request.
    fixtureAudit("ec2RunInstancesAllowed", {
      eventID: "v1-a",
      requestParameters: { ...params, metadataOptions: { httpTokens: "optional" } },
    }),
    fixtureAudit("ec2RunInstancesAllowed", {
      eventID: "v1-b",
      eventTime: "2026-06-01T12:50:00Z",
      requestParameters: { ...params, metadataOptions: { httpTokens: "optional" } },
    }),
    // The launch template says what the record does not.
    fixtureAudit("ec2RunInstancesAllowed", {
      eventID: "lt",
      requestParameters: { ...withoutMetadata, launchTemplate: { launchTemplateId: "lt-0abcd1234" } },
    }),
    // The management account: never counted.
    fixtureAudit("ec2RunInstancesAllowed", {
      eventID: "mgmt",
      recipientAccountId: MANAGEMENT,
      requestParameters: { ...params, metadataOptions: { httpTokens: "optional" } },
    }),
    fixtureAudit("s3PabDenied"),
  ];

  it("counts denials, what was refused already, and what the records cannot tell", () => {
    const tally = createTally();
    const target: AwsReplayTarget = {
      scp: catalogueScp("require-ec2-imdsv2"),
      scopes: ["r-root"],
      excluded: [],
      managementAccountId: MANAGEMENT,
      deployed: [],
      ancestorsOf,
    };
    for (const stored of summariseRecords(records, MANAGEMENT)) replayStoredRequest(stored, target, tally);
    expect({
      evaluated: tally.evaluated,
      denied: tally.denied,
      alreadyDenied: tally.alreadyDenied,
      notEvaluable: tally.notEvaluable,
    }).toEqual({ evaluated: 6, denied: 2, alreadyDenied: 1, notEvaluable: 1 });
    expect([...tally.notEvaluableActions]).toEqual([["ec2:RunInstances", 1]]);
    expect([...tally.missingKeys].sort()).toEqual([
      "ec2:metadatahttpputresponsehoplimit",
      "ec2:metadatahttptokens",
    ]);
    expect(tally.samples).toEqual([
      {
        eventId: "v1-b",
        time: "2026-06-01T12:50:00.000Z",
        action: "ec2:RunInstances",
        principal: "arn:aws:iam::444455556666:role/Deployer",
        scopeId: DEV_ACCOUNT,
        resource: "*",
      },
    ]);
  });
});

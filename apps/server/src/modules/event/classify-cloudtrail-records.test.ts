import { describe, expect, it } from "vitest";
import {
  catalogueScp,
  type FixtureName,
  fixtureAudit,
  fixtureRecord,
  lookupEventsAudit,
} from "../../../test/support/cloudtrail-fixtures";
import type { AuditRecord } from "../../cloud/cloud-provider";
import { classifyAudit } from "./classify";
import type { ClassifyContext, DeploymentInfo, WaiverInfo } from "./classify-context";

// The classifier over CloudTrail records written from AWS's documentation (test/fixtures/cloudtrail),
// against guardrails of the catalogue compiled as they deploy.

const WORKLOAD = "111122223333";
const SANDBOX = "444455556666";
const MANAGEMENT = "999988887777";
const PARENTS: Record<string, string> = {
  [WORKLOAD]: "ou-workloads",
  [SANDBOX]: "ou-workloads",
  [MANAGEMENT]: "r-root",
  "ou-workloads": "r-root",
};

function deployment(
  id: string,
  slug: string,
  more: Partial<DeploymentInfo> = {},
  params = {},
): DeploymentInfo {
  return {
    id,
    bundleId: `bundle-${id}`,
    key: "KEY0001",
    name: slug,
    namespace: null,
    mode: "PREVENT",
    nativeId: null,
    scopeExternalId: "r-root",
    excludedScopes: [],
    affectedResourceTypes: [],
    scp: catalogueScp(slug, params),
    ...more,
  };
}

const DEPLOYED = [
  deployment("pab", "protect-s3-account-public-access-block", { nativeId: "p-pab00001" }),
  deployment("imds", "require-ec2-imdsv2", { nativeId: "p-ec200001", scopeExternalId: "ou-workloads" }),
  deployment("iam", "deny-iam-user-creation", { nativeId: "p-iam00001" }),
  deployment("kms", "deny-kms-key-deletion", { nativeId: "p-kms00001" }),
  deployment("guardduty", "protect-guardduty", { nativeId: "p-gd000001" }),
  // ALERT bundles are not attached: no SCP id.
  deployment("types", "restrict-ec2-instance-types", { mode: "ALERT" }),
];

function context(deployments = DEPLOYED, waivers: WaiverInfo[] = []): ClassifyContext {
  return {
    tenantId: "t1",
    provider: "aws",
    deployments,
    waivers,
    ancestorsOf: (id) => {
      const chain = [id];
      for (let at = PARENTS[id]; at; at = PARENTS[at]) chain.push(at);
      return chain;
    },
    consoleLinks: true,
    managementAccountId: MANAGEMENT,
  };
}

const classified = (record: AuditRecord, ctx = context()) =>
  classifyAudit(record, ctx).map((e) => [e.type, e.deploymentId]);

describe("classifying CloudTrail records as AWS writes them", () => {
  it.each<[string, FixtureName, string[][]]>([
    ["an SCP denial naming the policy, by an assumed role", "s3PabDenied", [["PREVENTION", "pab"]]],
    [
      "EC2's Client.UnauthorizedOperation with an encoded message only",
      "ec2RunInstancesDenied",
      [["PREVENTION", "imds"]],
    ],
    ["IAM's AccessDenied naming the policy", "iamCreateUserDenied", [["PREVENTION", "iam"]]],
    ["a JSON service's AccessDeniedException", "kmsDeleteDenied", [["PREVENTION", "kms"]]],
    ["an SCP denial whose message names no policy", "guardDutyDeniedUnnamed", [["PREVENTION", "guardduty"]]],
    [
      "an allowed launch an ALERT guardrail would deny (no resources in the record)",
      "ec2RunInstancesAllowed",
      [["ALERT", "types"]],
    ],
    ["an allowed call under PREVENT without a waiver", "s3PabWaived", []],
  ])("%s", (_name, fixture, expected) => {
    expect(classified(fixtureAudit(fixture))).toEqual(expected);
    // LookupEvents' shape of the same record classifies alike.
    expect(classified(lookupEventsAudit(fixture))).toEqual(expected);
  });

  it("names the account and the role behind the session", () => {
    const [event] = classifyAudit(fixtureAudit("s3PabDenied"), context());
    expect(event).toMatchObject({
      resourceScope: WORKLOAD,
      userIdentifier: "arn:aws:iam::111122223333:role/Developer",
      userName: "Developer",
      occurredAt: new Date("2026-06-01T12:00:00Z"),
    });
    const [launch] = classifyAudit(fixtureAudit("ec2RunInstancesDenied"), context());
    expect(launch?.resourceScope).toBe(WORKLOAD);
  });

  it("records the retry as waived while the waiver for the role was in force", () => {
    const waiver: WaiverInfo = {
      deploymentId: "pab",
      from: new Date("2026-06-01T12:30:00Z"),
      until: new Date("2026-06-01T13:30:00Z"),
      scope: null,
      resource: null,
      principalArn: "arn:aws:iam::111122223333:role/Developer",
    };
    expect(classified(fixtureAudit("s3PabWaived"), context(DEPLOYED, [waiver]))).toEqual([["WAIVED", "pab"]]);
    const expired = { ...waiver, until: new Date("2026-06-01T12:39:59Z") };
    expect(classified(fixtureAudit("s3PabWaived"), context(DEPLOYED, [expired]))).toEqual([]);
  });

  it("classifies nothing in the management account, which SCPs never restrict", () => {
    for (const fixture of ["s3PabDenied", "ec2RunInstancesAllowed"] as const) {
      const record = fixtureRecord(fixture);
      const inManagement = fixtureAudit(fixture, {
        recipientAccountId: MANAGEMENT,
        userIdentity: { ...record.userIdentity, accountId: MANAGEMENT },
      });
      expect(classified(inManagement)).toEqual([]);
    }
  });

  it("raises no alert on a key the record does not tell (a launch template's metadata options)", () => {
    const record = fixtureRecord("ec2RunInstancesAllowed");
    const { metadataOptions: _dropped, ...params } = record.requestParameters ?? {};
    const fromTemplate = fixtureAudit("ec2RunInstancesAllowed", {
      requestParameters: {
        ...params,
        instanceType: "t3.micro",
        launchTemplate: { launchTemplateId: "lt-0abcd1234" },
      },
    });
    const imdsAlert = [deployment("imds-alert", "require-ec2-imdsv2", { mode: "ALERT" })];
    expect(classified(fromTemplate, context(imdsAlert))).toEqual([]);
    // Without a template the parameters are the whole launch: no metadata options is no IMDSv2.
    const plain = fixtureAudit("ec2RunInstancesAllowed", {
      requestParameters: { ...params, instanceType: "t3.micro" },
    });
    expect(classified(plain, context(imdsAlert))).toEqual([["ALERT", "imds-alert"]]);
  });

  it("attributes an unnamed denial only to a deployed guardrail that denies the request", () => {
    const guardDutyElsewhere = DEPLOYED.map((d) =>
      d.id === "guardduty" ? { ...d, scopeExternalId: "ou-other" } : d,
    );
    expect(classified(fixtureAudit("guardDutyDeniedUnnamed"), context(guardDutyElsewhere))).toEqual([]);
    const exempt = DEPLOYED.map((d) =>
      d.id === "guardduty"
        ? {
            ...d,
            scp: catalogueScp("protect-guardduty", {
              exempt_principal_arns: ["arn:aws:iam::*:role/Operator"],
            }),
          }
        : d,
    );
    expect(classified(fixtureAudit("guardDutyDeniedUnnamed"), context(exempt))).toEqual([]);
  });

  it("leaves denials that blame another policy type to their owners", () => {
    const identity = fixtureAudit("kmsDeleteDenied", {
      errorMessage:
        "User: arn:aws:sts::111122223333:assumed-role/Developer/jane is not authorized to perform: kms:ScheduleKeyDeletion on resource: arn:aws:kms:eu-west-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab because no identity-based policy allows the kms:ScheduleKeyDeletion action",
    });
    expect(classified(identity)).toEqual([]);
  });
});

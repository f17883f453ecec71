// Every resource control policy of the catalogue, compiled by Palisade (default parameters and each
// case's, without waivers, with a principal waiver and with an excluded account), attached to an OU
// under RCPFullAWSAccess, with service control policies beside it, decided by Palisade's evaluator
// and by @cloud-copilot/iam-simulate (AGPL; this test only, never product code). Requests: each
// definition's own cases and generated ones (callers inside and outside the organisation, the
// management account, a service-linked role; the services RCPs cover and one they do not; with and
// without TLS; before and after the waiver ends). Which policies are in force follows AWS's
// statement (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_rcps.html):
// RCPs of the resource's account path, not for management-account resources or service-linked
// roles; SCPs of the caller's account path.
import { describe, expect, it } from "vitest";
import { type SimulatedOutcome, simulateOrganization } from "../../../test/iam-simulate";
import type { AwsCase, AwsRcpDefinition } from "../../catalogue/definition-schema";
import { parseCatalogue } from "../../catalogue/parse-catalogue";
import { readCatalogueFiles } from "../../catalogue/read-catalogue-files";
import { evaluateOrganizationPolicies, rcpsApply } from "../../evaluators/scp/evaluate-rcp";
import type { ContextValue, ScpPolicy } from "../../evaluators/scp/evaluate-scp";
import type { IamPolicyDocument } from "../../evaluators/scp/iam-policy-document";
import type { ActiveWaiver, CompileBundleInput } from "../compile-input";
import { compileRcp } from "./compile-rcp";

const ORG = "o-a1b2c3d4e5";
const ROOT = "r-ab12";
const OU = "ou-ab12-aaaaaaaa";
const MANAGEMENT = "999988887777";
const MEMBER = "111122223333"; // in OU, the catalogue cases' account
const SIBLING = "222233334444"; // in OU
const OUTSIDE = "444455556666";
const PARENTS: Record<string, string[]> = {
  [MANAGEMENT]: [ROOT],
  [MEMBER]: [ROOT, OU],
  [SIBLING]: [ROOT, OU],
};
const MEMBERS = [MANAGEMENT, MEMBER, SIBLING];
const NOW = new Date("2026-03-01T08:00:00Z");
const WAIVER_END = new Date("2026-03-01T10:00:00Z");
const BEFORE_END = "2026-03-01T09:00:00Z";
const AFTER_END = "2026-03-01T11:00:00Z";
const PARTNER = `arn:aws:iam::${OUTSIDE}:role/Partner`;

const FULL: IamPolicyDocument = {
  Version: "2012-10-17",
  Statement: [{ Effect: "Allow", Action: "*", Resource: "*" }],
};
const RCP_FULL = {
  Version: "2012-10-17",
  Statement: [{ Effect: "Allow", Principal: "*", Action: "*", Resource: "*" }],
} as unknown as IamPolicyDocument;
const SCPS: Record<string, IamPolicyDocument> = {
  none: FULL,
  denyDeleteAndDecrypt: {
    Version: "2012-10-17",
    Statement: [{ Effect: "Deny", Action: ["s3:DeleteBucket", "kms:Decrypt"], Resource: "*" }],
  },
};

const catalogue = parseCatalogue(readCatalogueFiles());
const definitions = catalogue.definitions.filter((d): d is AwsRcpDefinition => d.enforcer === "aws_rcp");

interface Variant {
  name: string;
  waivers: ActiveWaiver[];
  excluded: string[];
}
const VARIANTS: Variant[] = [
  { name: "plain", waivers: [], excluded: [] },
  {
    name: "partner waived",
    waivers: [{ id: "w1", key: "DIFF000", expiresAt: WAIVER_END, principalArn: PARTNER }],
    excluded: [],
  },
  { name: "sibling excluded", waivers: [], excluded: [SIBLING] },
];

interface Request {
  principal: string;
  principalArn: string;
  callerAccount: string;
  action: string;
  resource: string;
  resourceAccount: string;
  context: Record<string, ContextValue>;
}

const GENERATED_ACTIONS: [string, (a: string) => string][] = [
  ["s3:GetObject", () => "arn:aws:s3:::example-customer-data/export.csv"],
  ["s3:PutObject", () => "arn:aws:s3:::example-customer-data/export.csv"],
  ["kms:Decrypt", (a) => `arn:aws:kms:eu-west-1:${a}:key/1234abcd-12ab-34cd-56ef-1234567890ab`],
  ["sqs:SendMessage", (a) => `arn:aws:sqs:eu-west-1:${a}:orders`],
  ["secretsmanager:GetSecretValue", (a) => `arn:aws:secretsmanager:eu-west-1:${a}:secret:db-AbCdEf`],
  ["sts:AssumeRole", (a) => `arn:aws:iam::${a}:role/Target`],
  ["ec2:TerminateInstances", (a) => `arn:aws:ec2:eu-west-1:${a}:instance/i-0123456789abcdef0`],
];
const CALLERS = [
  {
    arn: `arn:aws:sts::${MEMBER}:assumed-role/Developer/s`,
    principalArn: `arn:aws:iam::${MEMBER}:role/Developer`,
    account: MEMBER,
  },
  {
    arn: `arn:aws:sts::${SIBLING}:assumed-role/Developer/s`,
    principalArn: `arn:aws:iam::${SIBLING}:role/Developer`,
    account: SIBLING,
  },
  { arn: `arn:aws:sts::${OUTSIDE}:assumed-role/Partner/s`, principalArn: PARTNER, account: OUTSIDE },
  {
    arn: `arn:aws:sts::${OUTSIDE}:assumed-role/Other/s`,
    principalArn: `arn:aws:iam::${OUTSIDE}:role/Other`,
    account: OUTSIDE,
  },
  {
    arn: `arn:aws:sts::${MANAGEMENT}:assumed-role/Admin/s`,
    principalArn: `arn:aws:iam::${MANAGEMENT}:role/Admin`,
    account: MANAGEMENT,
  },
  {
    arn: `arn:aws:sts::${MEMBER}:assumed-role/AWSServiceRoleForSupport/s`,
    principalArn: `arn:aws:iam::${MEMBER}:role/aws-service-role/support.amazonaws.com/AWSServiceRoleForSupport`,
    account: MEMBER,
  },
];

function callerKeys(principalArn: string, account: string, time: string): Record<string, ContextValue> {
  return {
    "aws:PrincipalArn": principalArn,
    "aws:PrincipalAccount": account,
    "aws:PrincipalIsAWSService": "false",
    "aws:CurrentTime": time,
    "aws:RequestedRegion": "eu-west-1",
    ...(MEMBERS.includes(account) ? { "aws:PrincipalOrgID": ORG } : {}),
  };
}

function requestsOf(definition: AwsRcpDefinition): Request[] {
  const out: Request[] = [];
  for (const time of [BEFORE_END, AFTER_END]) {
    for (const c of definition.cases as AwsCase[]) {
      // Service principals have no ARN the simulator takes as a principal; their cases are run by check-catalogue.
      if (!c.request.principal_arn.startsWith("arn:")) continue;
      const account = /::(\d{12}):/.exec(c.request.principal_arn)![1]!;
      const arn = c.request.principal_arn;
      out.push({
        principal: arn,
        principalArn: arn,
        callerAccount: account,
        action: c.request.action,
        resource: c.request.resource,
        resourceAccount: c.request.resource_account ?? MEMBER,
        context: {
          ...callerKeys(arn, account, time),
          ...Object.fromEntries(
            Object.entries(c.request.context).map(([k, v]) => [k, Array.isArray(v) ? v : String(v)]),
          ),
        },
      });
    }
    for (const caller of CALLERS)
      for (const [action, resource] of GENERATED_ACTIONS)
        for (const secure of [true, false])
          out.push({
            principal: caller.arn,
            principalArn: caller.principalArn,
            callerAccount: caller.account,
            action,
            resource: resource(MEMBER),
            resourceAccount: MEMBER,
            context: {
              ...callerKeys(caller.principalArn, caller.account, time),
              "aws:SecureTransport": String(secure),
              "s3:x-amz-server-side-encryption": "aws:kms",
            },
          });
  }
  return out.map((r) => ({
    ...r,
    context: { "aws:ResourceAccount": r.resourceAccount, "aws:ResourceOrgID": ORG, ...r.context },
  }));
}

const levels = (account: string) => (PARENTS[account] ?? []).concat(account);

type Outcome = SimulatedOutcome;

function simulated(r: Request, rcp: IamPolicyDocument, scp: IamPolicyDocument): Promise<Outcome> {
  const scpInForce = r.callerAccount !== MANAGEMENT && MEMBERS.includes(r.callerAccount);
  // AWS's statement, written out for the simulator: which RCPs are in force.
  const rcpInForce =
    r.resourceAccount !== MANAGEMENT &&
    !r.principalArn.includes(":role/aws-service-role/") &&
    ["s3", "sts", "kms", "sqs", "secretsmanager"].includes(r.action.split(":")[0]!);
  return simulateOrganization({
    principal: r.principal,
    action: r.action,
    resource: r.resource,
    resourceAccount: r.resourceAccount,
    context: Object.fromEntries(
      Object.entries(r.context).map(([k, v]) => [k, Array.isArray(v) ? v : String(v)]),
    ),
    serviceControlPolicies: scpInForce
      ? levels(r.callerAccount).map((t) => ({
          orgIdentifier: t,
          policies: [
            { name: "FullAWSAccess", policy: FULL },
            ...(t === ROOT ? [{ name: "scp", policy: scp }] : []),
          ],
        }))
      : [],
    resourceControlPolicies: rcpInForce
      ? levels(r.resourceAccount).map((t) => ({
          orgIdentifier: t,
          // The simulator stands for RCPFullAWSAccess itself (it refuses the Allow as an RCP).
          policies: t === OU ? [{ name: "rcp", policy: rcp }] : [],
        }))
      : [],
  });
}

function palisade(r: Request, rcp: IamPolicyDocument, scp: IamPolicyDocument): Outcome {
  const policy = (name: string, document: IamPolicyDocument): ScpPolicy => ({
    id: name,
    arn: name,
    name,
    document,
  });
  const scpLevels =
    r.callerAccount !== MANAGEMENT && MEMBERS.includes(r.callerAccount)
      ? levels(r.callerAccount).map((t) => [
          policy("FullAWSAccess", FULL),
          ...(t === ROOT ? [policy("scp", scp)] : []),
        ])
      : [];
  const applies = rcpsApply({
    resourceAccountId: r.resourceAccount,
    managementAccountId: MANAGEMENT,
    memberAccountIds: MEMBERS,
    principalArn: r.principalArn,
    action: r.action,
  });
  const rcpLevels = applies
    ? levels(r.resourceAccount).map((t) => [
        policy("RCPFullAWSAccess", RCP_FULL),
        ...(t === OU ? [policy("rcp", rcp)] : []),
      ])
    : [];
  const decision = evaluateOrganizationPolicies(
    { action: r.action, resource: r.resource, principalArn: r.principalArn, context: r.context },
    scpLevels,
    rcpLevels,
  );
  return decision.decision === "allow"
    ? "Allowed"
    : decision.decision === "explicit_deny"
      ? "ExplicitlyDenied"
      : "ImplicitlyDenied";
}

describe("catalogue resource control policies agree with iam-simulate", () => {
  it("decides every aws_rcp definition, with waivers, exclusions and SCPs, as the simulator does", async () => {
    expect(definitions.length).toBeGreaterThanOrEqual(12);
    let cases = 0;
    const disagreements: string[] = [];
    const tally: Record<Outcome, number> = { Allowed: 0, ExplicitlyDenied: 0, ImplicitlyDenied: 0 };
    for (const definition of definitions) {
      const parameterSets = [
        {},
        ...(definition.cases as AwsCase[]).flatMap((c) => (c.parameters ? [c.parameters] : [])),
      ];
      const requests = requestsOf(definition);
      for (const parameters of parameterSets)
        for (const variant of VARIANTS) {
          const input: CompileBundleInput = {
            definition,
            definitions: catalogue.bySlug,
            parameters,
            mode: "PREVENT",
            key: "DIFF000",
            name: "differential",
            scopes: [{ id: OU }],
            excludedScopes: variant.excluded.map((id) => ({ id })),
            waivers: variant.waivers,
            waiverLinkBaseUrl: "https://palisade.example.com",
            now: NOW,
          };
          const rcp = JSON.parse(compileRcp(input).content) as IamPolicyDocument;
          for (const [scpName, scp] of Object.entries(SCPS))
            for (const request of requests) {
              const expected = await simulated(request, rcp, scp);
              const actual = palisade(request, rcp, scp);
              cases++;
              tally[expected]++;
              if (expected !== actual)
                disagreements.push(
                  `${definition.slug} ${JSON.stringify(parameters)} ${variant.name} scp=${scpName} ${request.principal} ${request.action} ${request.resource} ${JSON.stringify(request.context)}: simulator ${expected}, Palisade ${actual}`,
                );
            }
        }
    }
    console.log(
      `RCP catalogue differential: ${definitions.length} definitions, ${cases} cases, ${disagreements.length} disagreements; simulator outcomes ${JSON.stringify(tally)}`,
    );
    expect(disagreements.slice(0, 5)).toEqual([]);
    expect(Math.min(tally.Allowed, tally.ExplicitlyDenied)).toBeGreaterThan(0);
  }, 600_000);
});

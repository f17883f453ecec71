// Resource control policies, alone and with service control policies, decided by Palisade's
// evaluator and by an independent one: @cloud-copilot/iam-simulate (AGPL), used by this test only
// and never by the product. Generated requests over several layouts: RCPs on the root, an OU, a
// nested OU or the account, two RCPs on two levels or on one target, with SCPs (none, a deny, an
// allow list, a region lock); callers in the resource's account, in another member account, in the
// management account, outside the organisation, and a service-linked role; resources in member
// accounts and in the management account; with and without TLS.
//
// Which RCPs and SCPs are in force is AWS's documented rule, stated once here for the simulator
// (which is given the policies in force) and decided by Palisade's own `rcpsApply`:
// - RCPs are those on the path of the account that owns the resource, whoever calls; resources of
//   the management account, calls by service-linked roles and actions of services RCPs do not
//   support are not affected
//   (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_rcps.html);
// - SCPs are those on the path of the caller's account; none for the management account or a
//   principal outside the organisation
//   (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_scps.html).
// The organisation's decision is then: an explicit deny in either denies; otherwise each must allow
// (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic_policy-eval-denyallow.html).
import { describe, expect, it } from "vitest";
import { type SimulatedOutcome, simulateOrganization } from "../../../test/iam-simulate";
import { evaluateOrganizationPolicies, rcpsApply } from "./evaluate-rcp";
import type { ScpPolicy } from "./evaluate-scp";
import type { IamPolicyDocument } from "./iam-policy-document";
import { validateScpDocument } from "./validate-scp-document";

const ORG = "o-exampleorg1";
const ROOT = "r-ab12";
const OU_A = "ou-ab12-aaaaaaaa";
const OU_B = "ou-ab12-bbbbbbbb"; // inside OU_A
const MANAGEMENT = "111111111111";
const MEMBER_A = "222222222222"; // in OU_B
const MEMBER_B = "333333333333"; // in OU_A
const OUTSIDE = "999999999999";
const PARENTS: Record<string, string[]> = {
  [MANAGEMENT]: [ROOT],
  [MEMBER_A]: [ROOT, OU_A, OU_B],
  [MEMBER_B]: [ROOT, OU_A],
};
const MEMBERS = [MANAGEMENT, MEMBER_A, MEMBER_B];

const FULL: IamPolicyDocument = {
  Version: "2012-10-17",
  Statement: [{ Effect: "Allow", Action: "*", Resource: "*" }],
};
const deny = (statement: Record<string, unknown>) =>
  ({
    Version: "2012-10-17",
    Statement: [{ Effect: "Deny", Principal: "*", Resource: "*", ...statement }],
  }) as unknown as IamPolicyDocument;

/** RCPs a data perimeter uses (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_rcps_examples.html). */
const RCPS: Record<string, IamPolicyDocument> = {
  tlsOnly: deny({
    Action: ["s3:*", "sqs:*", "kms:*", "sts:*", "secretsmanager:*"],
    Condition: { BoolIfExists: { "aws:SecureTransport": "false" } },
  }),
  orgOnly: deny({
    Action: ["s3:*", "sqs:*", "kms:*", "secretsmanager:*", "sts:AssumeRole"],
    Condition: {
      StringNotEqualsIfExists: { "aws:PrincipalOrgID": ORG },
      BoolIfExists: { "aws:PrincipalIsAWSService": "false" },
    },
  }),
  noDeleteExceptAdmin: deny({
    Action: ["s3:DeleteBucket", "s3:DeleteObject", "kms:ScheduleKeyDeletion"],
    Condition: { ArnNotLike: { "aws:PrincipalArn": "arn:aws:iam::*:role/Admin" } },
  }),
  secretsOnlyFromAccount: deny({
    Action: "secretsmanager:GetSecretValue",
    Condition: { StringNotEquals: { "aws:PrincipalAccount": MEMBER_A } },
  }),
  s3ReadsOnlyOnPublic: {
    ...deny({ Action: "s3:GetObject" }),
    Statement: [
      { Effect: "Deny", Principal: "*", Action: "s3:GetObject", NotResource: "arn:aws:s3:::public-*/*" },
    ],
  } as unknown as IamPolicyDocument,
};
const SCPS: Record<string, IamPolicyDocument> = {
  none: FULL,
  denyDeleteBucket: {
    Version: "2012-10-17",
    Statement: [{ Effect: "Deny", Action: "s3:DeleteBucket", Resource: "*" }],
  },
  // An allow list in place of FullAWSAccess on the root: what it does not list is implicitly denied.
  allowListS3Sqs: {
    Version: "2012-10-17",
    Statement: [{ Effect: "Allow", Action: ["s3:*", "sqs:*"], Resource: "*" }],
  },
  regionLock: {
    Version: "2012-10-17",
    Statement: [
      {
        Effect: "Deny",
        NotAction: ["sts:*", "iam:*"],
        Resource: "*",
        Condition: { StringNotEquals: { "aws:RequestedRegion": "eu-west-1" } },
      },
    ],
  },
};

interface Caller {
  name: string;
  arn: string;
  principalArn: string;
  account: string;
}
const role = (account: string, name: string, session = "s"): Caller => ({
  name: `${name}@${account}`,
  arn: `arn:aws:sts::${account}:assumed-role/${name}/${session}`,
  principalArn: `arn:aws:iam::${account}:role/${name.replace(/^.*\//, "")}`.replace(
    "role/AWSServiceRoleForSupport",
    "role/aws-service-role/support.amazonaws.com/AWSServiceRoleForSupport",
  ),
  account,
});
const CALLERS: Caller[] = [
  role(MEMBER_A, "Developer"),
  role(MEMBER_A, "Admin"),
  role(MEMBER_B, "Developer"),
  role(MANAGEMENT, "Admin"),
  role(OUTSIDE, "Partner"),
  role(MEMBER_A, "AWSServiceRoleForSupport"),
];

const ACTIONS: { action: string; resource: (account: string) => string }[] = [
  { action: "s3:GetObject", resource: (a) => `arn:aws:s3:::data-${a}/report.csv` },
  { action: "s3:GetObject", resource: (a) => `arn:aws:s3:::public-${a}/index.html` },
  { action: "s3:DeleteBucket", resource: (a) => `arn:aws:s3:::data-${a}` },
  {
    action: "kms:Decrypt",
    resource: (a) => `arn:aws:kms:eu-west-1:${a}:key/1234abcd-12ab-34cd-56ef-1234567890ab`,
  },
  {
    action: "kms:ScheduleKeyDeletion",
    resource: (a) => `arn:aws:kms:eu-west-1:${a}:key/1234abcd-12ab-34cd-56ef-1234567890ab`,
  },
  { action: "sqs:SendMessage", resource: (a) => `arn:aws:sqs:eu-west-1:${a}:orders` },
  {
    action: "secretsmanager:GetSecretValue",
    resource: (a) => `arn:aws:secretsmanager:eu-west-1:${a}:secret:db-AbCdEf`,
  },
  { action: "sts:AssumeRole", resource: (a) => `arn:aws:iam::${a}:role/Target` },
  {
    action: "ec2:TerminateInstances",
    resource: (a) => `arn:aws:ec2:eu-west-1:${a}:instance/i-0123456789abcdef0`,
  },
];

/** Where RCPs are attached (target id -> RCP names), and the SCP on the root. */
interface Layout {
  rcps: Record<string, string[]>;
  scp: string;
}
const LAYOUTS: Layout[] = [];
const TARGETS = [ROOT, OU_A, OU_B, MEMBER_A, MEMBER_B];
for (const scp of Object.keys(SCPS)) {
  // One RCP on one target.
  for (const rcp of Object.keys(RCPS)) for (const at of TARGETS) LAYOUTS.push({ rcps: { [at]: [rcp] }, scp });
  // Two RCPs on different levels of the same path, and two on the same target.
  const names = Object.keys(RCPS);
  for (const [i, first] of names.entries())
    for (const second of names.slice(i + 1)) {
      LAYOUTS.push({ rcps: { [ROOT]: [first], [OU_B]: [second] }, scp });
      LAYOUTS.push({ rcps: { [MEMBER_A]: [first, second] }, scp });
    }
}
const rcpsAt = (layout: Layout, target: string) =>
  (layout.rcps[target] ?? []).map((name) => ({ name, document: RCPS[name]! }));

function levelsFor(
  account: string,
  attach: (target: string) => { name: string; document: IamPolicyDocument }[],
) {
  return (PARENTS[account] ?? []).concat(account).map((target) => ({ target, policies: attach(target) }));
}

/** FullAWSAccess everywhere, and the layout's SCP on the root (replacing FullAWSAccess when it is an allow list). */
function scpsAt(target: string, scp: string) {
  const full = { name: "FullAWSAccess", document: FULL };
  if (target !== ROOT) return [full];
  const own = { name: scp, document: SCPS[scp]! };
  return scp.startsWith("allowList") ? [own] : [full, own];
}

function context(caller: Caller, secure: boolean): Record<string, string | string[]> {
  const inOrg = MEMBERS.includes(caller.account);
  return {
    "aws:PrincipalArn": caller.principalArn,
    "aws:PrincipalAccount": caller.account,
    "aws:PrincipalIsAWSService": "false",
    "aws:SecureTransport": String(secure),
    "aws:RequestedRegion": "eu-west-1",
    ...(inOrg ? { "aws:PrincipalOrgID": ORG } : {}),
  };
}

type Outcome = SimulatedOutcome;

function simulated(
  caller: Caller,
  action: string,
  resource: string,
  resourceAccount: string,
  secure: boolean,
  layout: Layout,
  rcpsInForce: boolean,
): Promise<Outcome> {
  const scpInForce = caller.account !== MANAGEMENT && MEMBERS.includes(caller.account);
  const scpLevels = scpInForce ? levelsFor(caller.account, (t) => scpsAt(t, layout.scp)) : [];
  const rcpLevels = rcpsInForce ? levelsFor(resourceAccount, (t) => rcpsAt(layout, t)) : [];
  return simulateOrganization({
    principal: caller.arn,
    action,
    resource,
    resourceAccount,
    context: context(caller, secure),
    serviceControlPolicies: scpLevels.map((l) => ({
      orgIdentifier: l.target,
      policies: l.policies.map((p) => ({ name: p.name, policy: p.document })),
    })),
    resourceControlPolicies: rcpLevels.map((l) => ({
      orgIdentifier: l.target,
      policies: l.policies.map((p) => ({ name: p.name, policy: p.document })),
    })),
  });
}

function palisade(
  caller: Caller,
  action: string,
  resource: string,
  resourceAccount: string,
  secure: boolean,
  layout: Layout,
): Outcome {
  const policy = (name: string, document: IamPolicyDocument): ScpPolicy => ({
    id: name,
    arn: name,
    name,
    document,
  });
  const scpLevels =
    caller.account !== MANAGEMENT && MEMBERS.includes(caller.account)
      ? levelsFor(caller.account, (t) => scpsAt(t, layout.scp)).map((l) =>
          l.policies.map((p) => policy(p.name, p.document)),
        )
      : [];
  const applies = rcpsApply({
    resourceAccountId: resourceAccount,
    managementAccountId: MANAGEMENT,
    memberAccountIds: MEMBERS,
    principalArn: caller.principalArn,
    action,
  });
  const rcpLevels = applies
    ? levelsFor(resourceAccount, (t) => [
        { name: "RCPFullAWSAccess", document: FULL },
        ...rcpsAt(layout, t),
      ]).map((l) => l.policies.map((p) => policy(p.name, p.document)))
    : [];
  const decision = evaluateOrganizationPolicies(
    { action, resource, principalArn: caller.principalArn, context: context(caller, secure) },
    scpLevels,
    rcpLevels,
  );
  return decision.decision === "allow"
    ? "Allowed"
    : decision.decision === "explicit_deny"
      ? "ExplicitlyDenied"
      : "ImplicitlyDenied";
}

/** AWS's statement of where RCPs apply, written out for the simulator, which is given the policies in force. */
function rcpsInForceByAwsStatement(caller: Caller, action: string, resourceAccount: string): boolean {
  if (resourceAccount === MANAGEMENT) return false; // "RCPs don't affect resources in the management account"
  if (caller.principalArn.includes(":role/aws-service-role/")) return false; // service-linked roles
  return ["s3", "sts", "kms", "sqs", "secretsmanager"].includes(action.split(":")[0]!);
}

describe("resource control policies agree with iam-simulate", () => {
  it("every RCP of the perimeter is a valid RCP for Palisade's validator", () => {
    for (const [name, document] of Object.entries(RCPS))
      expect({ name, ...validateScpDocument(document, "rcp") }).toEqual({ name, valid: true, errors: [] });
  });

  it("decides RCPs alone and with SCPs as the simulator does, over generated requests and layouts", async () => {
    let cases = 0;
    const disagreements: string[] = [];
    const tally: Record<Outcome, number> = { Allowed: 0, ExplicitlyDenied: 0, ImplicitlyDenied: 0 };
    for (const layout of LAYOUTS)
      for (const caller of CALLERS)
        for (const { action, resource } of ACTIONS)
          for (const resourceAccount of [MEMBER_A, MEMBER_B, MANAGEMENT])
            for (const secure of [true, false]) {
              const arn = resource(resourceAccount);
              const expected = await simulated(
                caller,
                action,
                arn,
                resourceAccount,
                secure,
                layout,
                rcpsInForceByAwsStatement(caller, action, resourceAccount),
              );
              const actual = palisade(caller, action, arn, resourceAccount, secure, layout);
              cases++;
              tally[expected]++;
              if (expected !== actual)
                disagreements.push(
                  `${JSON.stringify(layout)} ${caller.name} ${action} ${arn} secure=${secure}: simulator ${expected}, Palisade ${actual}`,
                );
            }
    console.log(
      `RCP differential: ${cases} cases, ${disagreements.length} disagreements; simulator outcomes ${JSON.stringify(tally)}`,
    );
    expect(disagreements.slice(0, 10)).toEqual([]);
    // Each outcome occurs, so the cases exercise denials both explicit and implicit as well as allows.
    expect(Math.min(tally.Allowed, tally.ExplicitlyDenied, tally.ImplicitlyDenied)).toBeGreaterThan(0);
  }, 600_000);
});

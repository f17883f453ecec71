// An independent evaluator decides whether a principal waiver named from a role session lets each
// principal through: @cloud-copilot/iam-simulate (AGPL), used by this test only and never by the
// product. Its SCP evaluation and ArnLike matching are its own; Palisade's evaluator must agree.
import { describe, expect, it } from "vitest";
import { awsDefinition, bundle, KEY, NOW } from "../../test/bundles";
import { simulateOrganization } from "../../test/iam-simulate";
import { compileScp } from "../compilers/aws/compile-scp";
import { evaluateScpHierarchy, type IamPolicyDocument } from "../evaluators/scp/evaluate-scp";
import { evaluatedPrincipalArn } from "./principal-arn";

const ACCOUNT = "111122223333";
const OTHER_ACCOUNT = "444455556666";
const WAIVED_SESSION = `arn:aws:sts::${ACCOUNT}:assumed-role/Developer/alice`;
const FULL_ACCESS: IamPolicyDocument = {
  Version: "2012-10-17",
  Statement: [{ Effect: "Allow", Action: "*", Resource: "*" }],
};

const compiled = compileScp(
  bundle({
    definition: awsDefinition("deny-leave-organization"),
    waivers: [
      {
        id: "w-session",
        key: KEY,
        expiresAt: new Date(NOW.getTime() + 3_600_000),
        principalArn: WAIVED_SESSION,
      },
    ],
  }),
);

/**
 * Each caller, with the aws:PrincipalArn AWS evaluates for it: a role session's role ARN, path
 * included (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-keys.html#condition-keys-principalarn).
 */
const callers: { name: string; caller: string; principalArn: string; waived: boolean }[] = [
  {
    name: "the waived session",
    caller: WAIVED_SESSION,
    principalArn: `arn:aws:iam::${ACCOUNT}:role/Developer`,
    waived: true,
  },
  {
    name: "another session of the role",
    caller: `arn:aws:sts::${ACCOUNT}:assumed-role/Developer/bob`,
    principalArn: `arn:aws:iam::${ACCOUNT}:role/Developer`,
    waived: true,
  },
  {
    name: "a session of the role when it has a path",
    caller: `arn:aws:sts::${ACCOUNT}:assumed-role/Developer/carol`,
    principalArn: `arn:aws:iam::${ACCOUNT}:role/teams/web/Developer`,
    waived: true,
  },
  {
    name: "another role",
    caller: `arn:aws:sts::${ACCOUNT}:assumed-role/Admin/alice`,
    principalArn: `arn:aws:iam::${ACCOUNT}:role/Admin`,
    waived: false,
  },
  {
    name: "a role whose name ends like it",
    caller: `arn:aws:sts::${ACCOUNT}:assumed-role/SeniorDeveloper/alice`,
    principalArn: `arn:aws:iam::${ACCOUNT}:role/SeniorDeveloper`,
    waived: false,
  },
  {
    name: "a user of the same name",
    caller: `arn:aws:iam::${ACCOUNT}:user/Developer`,
    principalArn: `arn:aws:iam::${ACCOUNT}:user/Developer`,
    waived: false,
  },
  {
    name: "the same role name in another account",
    caller: `arn:aws:sts::${OTHER_ACCOUNT}:assumed-role/Developer/alice`,
    principalArn: `arn:aws:iam::${OTHER_ACCOUNT}:role/Developer`,
    waived: false,
  },
];

async function simulated(caller: string, principalArn: string): Promise<boolean> {
  const account = principalArn.split(":")[4]!;
  const outcome = await simulateOrganization({
    principal: caller,
    action: "organizations:LeaveOrganization",
    resource: "*",
    resourceAccount: account,
    context: {
      "aws:PrincipalArn": principalArn,
      "aws:PrincipalAccount": account,
      "aws:CurrentTime": NOW.toISOString().replace(/\.\d{3}Z$/, "Z"),
    },
    serviceControlPolicies: [
      {
        orgIdentifier: "r-ab12",
        policies: [
          { name: "FullAWSAccess", policy: FULL_ACCESS },
          { name: compiled.name, policy: JSON.parse(compiled.content) },
        ],
      },
    ],
    resourceControlPolicies: [],
  });
  return outcome === "Allowed";
}

function palisade(caller: string, principalArn: string): boolean {
  const decision = evaluateScpHierarchy(
    {
      action: "organizations:LeaveOrganization",
      resource: "*",
      principalArn: evaluatedPrincipalArn(caller),
      context: {
        "aws:PrincipalArn": principalArn,
        "aws:PrincipalAccount": principalArn.split(":")[4]!,
        "aws:CurrentTime": NOW.toISOString().replace(/\.\d{3}Z$/, "Z"),
      },
    },
    [
      [
        { id: "p-full", arn: "", name: "FullAWSAccess", document: FULL_ACCESS },
        { id: "p-1", arn: "", name: compiled.name, document: compiled.content },
      ],
    ],
  );
  return decision.decision === "allow";
}

describe("a waiver for a role session covers that role's sessions and no other principal", () => {
  it.each(callers)("$name", async ({ caller, principalArn, waived }) => {
    expect(await simulated(caller, principalArn)).toBe(waived);
    expect(palisade(caller, principalArn)).toBe(waived);
  });
});

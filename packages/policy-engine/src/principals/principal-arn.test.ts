import { describe, expect, it } from "vitest";
import {
  describeWaiverPrincipal,
  evaluatedPrincipalArn,
  principalArnOfIdentity,
  waiverCoversPrincipal,
  waiverPrincipalPattern,
} from "./principal-arn";

const ACCOUNT = "111122223333";
const SESSION = `arn:aws:sts::${ACCOUNT}:assumed-role/Developer/alice`;
const SSO_ROLE = `arn:aws:iam::${ACCOUNT}:role/aws-reserved/sso.amazonaws.com/eu-west-1/AWSReservedSSO_Admin_0123456789abcdef`;

// https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-keys.html#condition-keys-principalarn:
// a role session's aws:PrincipalArn is its role's ARN, not the session ARN.
describe("evaluatedPrincipalArn", () => {
  it("names the role of a role session", () => {
    expect(evaluatedPrincipalArn(SESSION)).toBe(`arn:aws:iam::${ACCOUNT}:role/Developer`);
    expect(evaluatedPrincipalArn(` arn:aws-us-gov:sts::${ACCOUNT}:assumed-role/Ops/bob@example.com `)).toBe(
      `arn:aws-us-gov:iam::${ACCOUNT}:role/Ops`,
    );
  });

  it("keeps users, roles and patterns as given", () => {
    for (const arn of [`arn:aws:iam::${ACCOUNT}:user/carol`, SSO_ROLE, "arn:aws:iam::*:role/Admin*"])
      expect(evaluatedPrincipalArn(arn)).toBe(arn);
  });
});

describe("principalArnOfIdentity", () => {
  it("uses the session issuer of an assumed role, with its path", () => {
    expect(
      principalArnOfIdentity({
        type: "AssumedRole",
        arn: `arn:aws:sts::${ACCOUNT}:assumed-role/AWSReservedSSO_Admin_0123456789abcdef/alice@example.com`,
        sessionContext: { sessionIssuer: { type: "Role", arn: SSO_ROLE } },
      }),
    ).toBe(SSO_ROLE);
  });

  it("falls back to the role of the session ARN, and keeps users", () => {
    expect(principalArnOfIdentity({ type: "AssumedRole", arn: SESSION })).toBe(
      `arn:aws:iam::${ACCOUNT}:role/Developer`,
    );
    expect(principalArnOfIdentity({ type: "IAMUser", arn: `arn:aws:iam::${ACCOUNT}:user/carol` })).toBe(
      `arn:aws:iam::${ACCOUNT}:user/carol`,
    );
    expect(principalArnOfIdentity({}, SESSION)).toBe(`arn:aws:iam::${ACCOUNT}:role/Developer`);
  });
});

describe("a waiver for a session covers its role, whatever the role's path, and nothing else", () => {
  it("writes the role by account and name", () => {
    expect(waiverPrincipalPattern(SESSION)).toBe(`arn:aws:iam::${ACCOUNT}:role*/Developer`);
    expect(waiverPrincipalPattern(SSO_ROLE)).toBe(
      `arn:aws:iam::${ACCOUNT}:role*/AWSReservedSSO_Admin_0123456789abcdef`,
    );
    expect(waiverPrincipalPattern(`arn:aws:iam::${ACCOUNT}:user/carol`)).toBe(
      `arn:aws:iam::${ACCOUNT}:user/carol`,
    );
  });

  it.each([
    [`arn:aws:iam::${ACCOUNT}:role/Developer`, true],
    [`arn:aws:iam::${ACCOUNT}:role/teams/web/Developer`, true],
    [`arn:aws:sts::${ACCOUNT}:assumed-role/Developer/bob`, true],
    [`arn:aws:iam::${ACCOUNT}:role/Admin`, false],
    [`arn:aws:iam::${ACCOUNT}:role/SeniorDeveloper`, false],
    [`arn:aws:iam::${ACCOUNT}:role/Developer/x`, false],
    [`arn:aws:iam::${ACCOUNT}:user/Developer`, false],
    [`arn:aws:iam::444455556666:role/Developer`, false],
    [`arn:aws:sts::444455556666:assumed-role/Developer/alice`, false],
  ])("%s: %s", (principal, covered) => {
    expect(waiverCoversPrincipal(SESSION, principal)).toBe(covered);
  });

  it("covers an Identity Center role named from one of its sessions", () => {
    const session = `arn:aws:sts::${ACCOUNT}:assumed-role/AWSReservedSSO_Admin_0123456789abcdef/alice@example.com`;
    expect(waiverCoversPrincipal(session, SSO_ROLE)).toBe(true);
  });

  it("tells the requester that the whole role is covered", () => {
    expect(describeWaiverPrincipal(SESSION)).toMatch(
      /every session of the IAM role Developer in account 111122223333/,
    );
    expect(describeWaiverPrincipal(`arn:aws:iam::${ACCOUNT}:user/carol`)).toBe(
      "the IAM user carol in account 111122223333",
    );
  });
});

// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${...} is IAM policy-variable syntax, not a template.
import { describe, expect, it } from "vitest";
import {
  type ContextValue,
  evaluatePolicySet,
  evaluateScpHierarchy,
  type IamRequest,
  type ScpPolicy,
} from "./evaluate-scp";
import type { IamStatement } from "./iam-policy-document";

const PRINCIPAL = "arn:aws:iam::111122223333:role/Developer";

const fullAccess: ScpPolicy = {
  id: "p-FullAWSAccess",
  arn: "arn:aws:organizations::aws:policy/service_control_policy/p-FullAWSAccess",
  name: "FullAWSAccess",
  document: '{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}',
};

function denyPolicy(
  statement: Omit<IamStatement, "Effect">,
  version: "2012-10-17" | "2008-10-17" = "2012-10-17",
) {
  return {
    id: "p-deny",
    arn: "arn:aws:organizations::111122223333:policy/o-1/service_control_policy/p-deny",
    name: "deny",
    document: { Version: version, Statement: [{ Sid: "GuardRail", Effect: "Deny" as const, ...statement }] },
  } satisfies ScpPolicy;
}

function request(action: string, resource = "*", context: Record<string, ContextValue> = {}): IamRequest {
  return { action, resource, principalArn: PRINCIPAL, context };
}

type Case = {
  rule: string;
  statement: Omit<IamStatement, "Effect">;
  request: IamRequest;
  denied: boolean;
  version?: "2012-10-17" | "2008-10-17";
};

function check(cases: Case[]) {
  it.each(cases)("$rule", ({ statement, request: req, denied, version }) => {
    const decision = evaluatePolicySet(req, [fullAccess, denyPolicy(statement, version)]);
    expect(decision.decision).toBe(denied ? "explicit_deny" : "allow");
    if (denied) {
      expect(decision.policy?.id).toBe("p-deny");
      expect(decision.sid).toBe("GuardRail");
      expect(decision.statementIndex).toBe(0);
    }
  });
}

describe("Action and Resource matching", () => {
  // IAM docs, "IAM JSON policy elements: Action": service prefixes and action names are
  // case-insensitive; * matches any characters and ? a single one.
  // "NotAction": with Deny, every action except the listed ones is denied.
  // "Resource": ARNs are case-sensitive and may use * and ? wildcards.
  check([
    {
      rule: "exact action",
      statement: { Action: "ec2:RunInstances", Resource: "*" },
      request: request("ec2:RunInstances"),
      denied: true,
    },
    {
      rule: "action is case-insensitive",
      statement: { Action: "EC2:runinstances", Resource: "*" },
      request: request("ec2:RunInstances"),
      denied: true,
    },
    {
      rule: "* wildcard in action",
      statement: { Action: "s3:Delete*", Resource: "*" },
      request: request("s3:DeleteBucket"),
      denied: true,
    },
    {
      rule: "? wildcard matches exactly one character",
      statement: { Action: "iam:?etRole", Resource: "*" },
      request: request("iam:GetRole"),
      denied: true,
    },
    {
      rule: "? does not match two characters",
      statement: { Action: "iam:?etRole", Resource: "*" },
      request: request("iam:ResetRole"),
      denied: false,
    },
    {
      rule: "other action not denied",
      statement: { Action: ["s3:DeleteBucket"], Resource: "*" },
      request: request("s3:GetObject"),
      denied: false,
    },
    {
      rule: "NotAction with Deny denies actions not listed",
      statement: { NotAction: ["iam:*", "sts:*"], Resource: "*" },
      request: request("ec2:RunInstances"),
      denied: true,
    },
    {
      rule: "NotAction with Deny leaves listed actions alone",
      statement: { NotAction: ["iam:*", "sts:*"], Resource: "*" },
      request: request("sts:AssumeRole"),
      denied: false,
    },
    {
      rule: "resource ARN wildcard",
      statement: { Action: "s3:*", Resource: "arn:aws:s3:::prod-*/*" },
      request: request("s3:PutObject", "arn:aws:s3:::prod-data/key.txt"),
      denied: true,
    },
    {
      rule: "resource ARN is case-sensitive",
      statement: { Action: "s3:*", Resource: "arn:aws:s3:::prod-*/*" },
      request: request("s3:PutObject", "arn:aws:s3:::PROD-data/key.txt"),
      denied: false,
    },
    {
      rule: "NotResource with Deny denies other resources",
      statement: { Action: "s3:*", NotResource: ["arn:aws:s3:::logs", "arn:aws:s3:::logs/*"] },
      request: request("s3:PutObject", "arn:aws:s3:::data/x"),
      denied: true,
    },
    {
      rule: "NotResource with Deny spares listed resources",
      statement: { Action: "s3:*", NotResource: ["arn:aws:s3:::logs", "arn:aws:s3:::logs/*"] },
      request: request("s3:PutObject", "arn:aws:s3:::logs/x"),
      denied: false,
    },
  ]);
});

describe("Condition operators", () => {
  // IAM docs, "Condition operators": String operators (Like uses * and ?), Numeric, Date (ISO 8601
  // or epoch seconds), Bool, BinaryEquals (base-64), IpAddress (CIDR), Arn (component-wise), Null.
  const ctx = (context: Record<string, ContextValue>) => request("ec2:RunInstances", "*", context);
  check([
    {
      rule: "StringEquals is case-sensitive",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { StringEquals: { "aws:RequestedRegion": "eu-west-1" } },
      },
      request: ctx({ "aws:RequestedRegion": "EU-WEST-1" }),
      denied: false,
    },
    {
      rule: "StringEqualsIgnoreCase ignores case",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { StringEqualsIgnoreCase: { "aws:RequestedRegion": "eu-west-1" } },
      },
      request: ctx({ "aws:RequestedRegion": "EU-WEST-1" }),
      denied: true,
    },
    {
      rule: "StringNotEqualsIgnoreCase",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { StringNotEqualsIgnoreCase: { "aws:RequestedRegion": "EU-west-1" } },
      },
      request: ctx({ "aws:RequestedRegion": "eu-west-1" }),
      denied: false,
    },
    {
      rule: "condition keys are case-insensitive",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { StringEquals: { "AWS:REQUESTEDREGION": "eu-west-1" } },
      },
      request: ctx({ "aws:requestedregion": "eu-west-1" }),
      denied: true,
    },
    {
      rule: "values of one key are OR'ed",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { StringEquals: { "aws:RequestedRegion": ["us-east-1", "eu-west-1"] } },
      },
      request: ctx({ "aws:RequestedRegion": "eu-west-1" }),
      denied: true,
    },
    {
      rule: "StringNotEquals with several values: none may match",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { StringNotEquals: { "aws:RequestedRegion": ["us-east-1", "eu-west-1"] } },
      },
      request: ctx({ "aws:RequestedRegion": "eu-west-1" }),
      denied: false,
    },
    {
      rule: "StringNotEquals outside the list denies",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { StringNotEquals: { "aws:RequestedRegion": ["us-east-1", "eu-west-1"] } },
      },
      request: ctx({ "aws:RequestedRegion": "ap-south-1" }),
      denied: true,
    },
    {
      rule: "keys and operators are AND'ed (one false)",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { StringEquals: { "aws:RequestedRegion": "eu-west-1", "ec2:InstanceType": "t3.micro" } },
      },
      request: ctx({ "aws:RequestedRegion": "eu-west-1", "ec2:InstanceType": "m5.large" }),
      denied: false,
    },
    {
      rule: "keys and operators are AND'ed (all true)",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: {
          StringEquals: { "aws:RequestedRegion": "eu-west-1" },
          StringLike: { "ec2:InstanceType": "m5.*" },
        },
      },
      request: ctx({ "aws:RequestedRegion": "eu-west-1", "ec2:InstanceType": "m5.large" }),
      denied: true,
    },
    {
      rule: "StringLike with ?",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { StringLike: { "ec2:InstanceType": "t?.micro" } },
      },
      request: ctx({ "ec2:InstanceType": "t3.micro" }),
      denied: true,
    },
    {
      rule: "StringNotLike",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { StringNotLike: { "aws:PrincipalArn": "arn:aws:iam::*:role/Admin*" } },
      },
      request: ctx({}),
      denied: true,
    },
    {
      rule: "NumericLessThan",
      statement: { Action: "*", Resource: "*", Condition: { NumericLessThan: { "ec2:VolumeSize": 100 } } },
      request: ctx({ "ec2:VolumeSize": 50 }),
      denied: true,
    },
    {
      rule: "NumericGreaterThanEquals at the bound",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { NumericGreaterThanEquals: { "s3:max-keys": "10" } },
      },
      request: ctx({ "s3:max-keys": "10" }),
      denied: true,
    },
    {
      rule: "NumericNotEquals",
      statement: { Action: "*", Resource: "*", Condition: { NumericNotEquals: { "ec2:VolumeSize": 8 } } },
      request: ctx({ "ec2:VolumeSize": 8 }),
      denied: false,
    },
    {
      rule: "NumericEquals with a non-number request value does not match",
      statement: { Action: "*", Resource: "*", Condition: { NumericEquals: { "ec2:VolumeSize": 8 } } },
      request: ctx({ "ec2:VolumeSize": "eight" }),
      denied: false,
    },
    {
      rule: "DateGreaterThan with ISO 8601",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { DateGreaterThan: { "aws:CurrentTime": "2026-01-01T00:00:00Z" } },
      },
      request: ctx({ "aws:CurrentTime": "2026-06-01T12:00:00Z" }),
      denied: true,
    },
    {
      rule: "DateLessThan with epoch seconds",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { DateLessThan: { "aws:EpochTime": "1767225600" } },
      },
      request: ctx({ "aws:EpochTime": 1767225599 }),
      denied: true,
    },
    {
      rule: "DateLessThan compares ISO against epoch",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { DateLessThan: { "aws:CurrentTime": "1767225600" } },
      },
      request: ctx({ "aws:CurrentTime": "2026-01-01T00:00:01Z" }),
      denied: false,
    },
    {
      rule: "DateLessThanEquals / DateGreaterThanEquals / DateEquals",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: {
          DateLessThanEquals: { "aws:CurrentTime": "2026-01-01T00:00:00Z" },
          DateGreaterThanEquals: { "aws:CurrentTime": "2026-01-01T00:00:00Z" },
          DateEquals: { "aws:CurrentTime": "2026-01-01T00:00:00Z" },
        },
      },
      request: ctx({ "aws:CurrentTime": "2026-01-01T00:00:00.000Z" }),
      denied: true,
    },
    {
      rule: "DateNotEquals",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { DateNotEquals: { "aws:CurrentTime": "2026-01-01T00:00:00Z" } },
      },
      request: ctx({ "aws:CurrentTime": "2026-01-01T00:00:00Z" }),
      denied: false,
    },
    {
      rule: "Bool compares true/false case-insensitively",
      statement: { Action: "*", Resource: "*", Condition: { Bool: { "aws:SecureTransport": "false" } } },
      request: ctx({ "aws:SecureTransport": false }),
      denied: true,
    },
    {
      rule: "Bool true does not match false",
      statement: { Action: "*", Resource: "*", Condition: { Bool: { "aws:MultiFactorAuthPresent": true } } },
      request: ctx({ "aws:MultiFactorAuthPresent": "FALSE" }),
      denied: false,
    },
    {
      rule: "BinaryEquals compares base-64 values",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { BinaryEquals: { "custom:Blob": "QmluYXJ5VmFsdWU=" } },
      },
      request: ctx({ "custom:Blob": "QmluYXJ5VmFsdWU=" }),
      denied: true,
    },
    {
      rule: "IpAddress with IPv4 CIDR",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { IpAddress: { "aws:SourceIp": "203.0.113.0/24" } },
      },
      request: ctx({ "aws:SourceIp": "203.0.113.77" }),
      denied: true,
    },
    {
      rule: "IpAddress with IPv6 CIDR",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { IpAddress: { "aws:SourceIp": "2001:db8:1234::/48" } },
      },
      request: ctx({ "aws:SourceIp": "2001:db8:1234:ffff::1" }),
      denied: true,
    },
    {
      rule: "IpAddress with IPv6 CIDR outside the range",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { IpAddress: { "aws:SourceIp": "2001:db8:1234::/48" } },
      },
      request: ctx({ "aws:SourceIp": "2001:db8:1235::1" }),
      denied: false,
    },
    {
      rule: "NotIpAddress denies outside the corporate ranges",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { NotIpAddress: { "aws:SourceIp": ["192.0.2.0/24", "2001:db8::/32"] } },
      },
      request: ctx({ "aws:SourceIp": "198.51.100.4" }),
      denied: true,
    },
    {
      rule: "NotIpAddress spares an address inside a range",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { NotIpAddress: { "aws:SourceIp": ["192.0.2.0/24", "2001:db8::/32"] } },
      },
      request: ctx({ "aws:SourceIp": "2001:db8::42" }),
      denied: false,
    },
    {
      rule: "ArnLike matches each ARN component",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { ArnLike: { "aws:PrincipalArn": "arn:aws:iam::*:role/Dev*" } },
      },
      request: ctx({}),
      denied: true,
    },
    {
      rule: "ArnLike wildcard does not cross a component boundary",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { ArnLike: { "aws:PrincipalArn": "arn:aws:*:role/Developer" } },
      },
      request: ctx({}),
      denied: false,
    },
    {
      rule: "ArnEquals",
      statement: { Action: "*", Resource: "*", Condition: { ArnEquals: { "aws:PrincipalArn": PRINCIPAL } } },
      request: ctx({}),
      denied: true,
    },
    {
      rule: "ArnNotLike exempts the matching principal",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { ArnNotLike: { "aws:PrincipalArn": ["arn:aws:iam::*:role/Developer"] } },
      },
      request: ctx({}),
      denied: false,
    },
    {
      rule: "ArnNotEquals",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { ArnNotEquals: { "aws:PrincipalArn": "arn:aws:iam::111122223333:role/Admin" } },
      },
      request: ctx({}),
      denied: true,
    },
    {
      rule: "Null true: key absent",
      statement: { Action: "*", Resource: "*", Condition: { Null: { "aws:RequestTag/owner": "true" } } },
      request: ctx({}),
      denied: true,
    },
    {
      rule: "Null true: key present",
      statement: { Action: "*", Resource: "*", Condition: { Null: { "aws:RequestTag/owner": "true" } } },
      request: ctx({ "aws:RequestTag/owner": "alice" }),
      denied: false,
    },
    {
      rule: "Null false: key present",
      statement: { Action: "*", Resource: "*", Condition: { Null: { "aws:RequestTag/owner": false } } },
      request: ctx({ "aws:RequestTag/owner": "alice" }),
      denied: true,
    },
  ]);
});

describe("missing keys, IfExists and set operators", () => {
  // IAM docs, "Condition operators": a key missing from the request makes a positive operator false
  // and a negated one (StringNotLike, ArnNotLike, ...) true; ...IfExists makes it true when the key
  // is missing. "Set operators for multivalued context keys": ForAllValues is true when the key is
  // missing or its value is a null data set such as an empty string, ForAnyValue is false then.
  const ctx = (context: Record<string, ContextValue>) => request("ec2:RunInstances", "*", context);
  check([
    {
      rule: "StringEquals on a missing key is false",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { StringEquals: { "ec2:MetadataHttpTokens": "optional" } },
      },
      request: ctx({}),
      denied: false,
    },
    {
      rule: "StringNotEquals on a missing key is true",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { StringNotEquals: { "ec2:MetadataHttpTokens": "required" } },
      },
      request: ctx({}),
      denied: true,
    },
    {
      rule: "NotIpAddress on a missing key is true",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { NotIpAddress: { "aws:SourceIp": "10.0.0.0/8" } },
      },
      request: ctx({}),
      denied: true,
    },
    {
      rule: "StringNotEqualsIfExists on a missing key is true",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { StringNotEqualsIfExists: { "ec2:MetadataHttpTokens": "required" } },
      },
      request: ctx({}),
      denied: true,
    },
    {
      rule: "StringNotEqualsIfExists on a present, allowed value",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { StringNotEqualsIfExists: { "ec2:MetadataHttpTokens": "required" } },
      },
      request: ctx({ "ec2:MetadataHttpTokens": "required" }),
      denied: false,
    },
    {
      rule: "StringEqualsIfExists on a missing key is true",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { StringEqualsIfExists: { "ec2:InstanceType": "p4d.24xlarge" } },
      },
      request: ctx({}),
      denied: true,
    },
    {
      rule: "NumericGreaterThanIfExists checks the value when present",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { NumericGreaterThanIfExists: { "ec2:VolumeSize": 100 } },
      },
      request: ctx({ "ec2:VolumeSize": 50 }),
      denied: false,
    },
    {
      rule: "ForAllValues on a missing key is true",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { "ForAllValues:StringEquals": { "aws:TagKeys": ["owner", "env"] } },
      },
      request: ctx({}),
      denied: true,
    },
    {
      rule: "ForAllValues on an empty set is true",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { "ForAllValues:StringEquals": { "aws:TagKeys": ["owner", "env"] } },
      },
      request: ctx({ "aws:TagKeys": [] }),
      denied: true,
    },
    {
      rule: "ForAllValues on an empty string is true",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { "ForAllValues:StringEquals": { "aws:TagKeys": ["owner", "env"] } },
      },
      request: ctx({ "aws:TagKeys": "" }),
      denied: true,
    },
    {
      rule: "ForAnyValue on an empty string is false",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { "ForAnyValue:StringNotEquals": { "aws:TagKeys": ["owner"] } },
      },
      request: ctx({ "aws:TagKeys": "" }),
      denied: false,
    },
    {
      rule: "ForAllValues: every request value must match",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { "ForAllValues:StringEquals": { "aws:TagKeys": ["owner", "env"] } },
      },
      request: ctx({ "aws:TagKeys": ["owner", "cost"] }),
      denied: false,
    },
    {
      rule: "ForAllValues: all values in the list",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { "ForAllValues:StringEquals": { "aws:TagKeys": ["owner", "env"] } },
      },
      request: ctx({ "aws:TagKeys": ["env", "owner"] }),
      denied: true,
    },
    {
      rule: "ForAllValues with a negated operator: no value may be listed",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { "ForAllValues:StringNotLike": { "aws:TagKeys": ["aws:*"] } },
      },
      request: ctx({ "aws:TagKeys": ["owner", "aws:cloudformation"] }),
      denied: false,
    },
    {
      rule: "ForAnyValue on a missing key is false",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { "ForAnyValue:StringEquals": { "aws:TagKeys": ["secret"] } },
      },
      request: ctx({}),
      denied: false,
    },
    {
      rule: "ForAnyValue: one matching value suffices",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { "ForAnyValue:StringLike": { "aws:TagKeys": ["sec*"] } },
      },
      request: ctx({ "aws:TagKeys": ["owner", "secret"] }),
      denied: true,
    },
    {
      rule: "ForAnyValue with a negated operator: one value outside the list",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { "ForAnyValue:StringNotEquals": { "aws:TagKeys": ["owner"] } },
      },
      request: ctx({ "aws:TagKeys": ["owner", "cost"] }),
      denied: true,
    },
    {
      rule: "ForAnyValue...IfExists on a missing key is true",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { "ForAnyValue:StringEqualsIfExists": { "aws:TagKeys": ["secret"] } },
      },
      request: ctx({}),
      denied: true,
    },
  ]);
});

describe("policy variables", () => {
  // IAM docs, "Policy variables": ${key} is replaced with the request's value in Resource and in
  // string/ARN condition values (Version 2012-10-17 only); ${*}, ${?}, ${$} are the literal
  // characters; ${key, 'default'} supplies a default; an unresolvable variable makes the statement fail to match.
  const ctx = (resource: string, context: Record<string, ContextValue> = {}) =>
    request("s3:PutObject", resource, context);
  check([
    {
      rule: "variable in Resource",
      statement: { Action: "s3:*", NotResource: "arn:aws:s3:::home/${aws:PrincipalAccount}/*" },
      request: ctx("arn:aws:s3:::home/111122223333/file"),
      denied: false,
    },
    {
      rule: "variable in Resource, other prefix",
      statement: { Action: "s3:*", NotResource: "arn:aws:s3:::home/${aws:PrincipalAccount}/*" },
      request: ctx("arn:aws:s3:::home/999999999999/file"),
      denied: true,
    },
    {
      rule: "variable in a condition value",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { StringNotEquals: { "aws:ResourceTag/owner": "${aws:PrincipalTag/team}" } },
      },
      request: ctx("*", { "aws:ResourceTag/owner": "web", "aws:PrincipalTag/team": "web" }),
      denied: false,
    },
    {
      rule: "variable in a condition value, different",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { StringNotEquals: { "aws:ResourceTag/owner": "${aws:PrincipalTag/team}" } },
      },
      request: ctx("*", { "aws:ResourceTag/owner": "data", "aws:PrincipalTag/team": "web" }),
      denied: true,
    },
    {
      rule: "${*} is a literal asterisk",
      statement: { Action: "*", Resource: "arn:aws:s3:::bucket/${*}" },
      request: ctx("arn:aws:s3:::bucket/anything"),
      denied: false,
    },
    {
      rule: "${*} matches an asterisk",
      statement: { Action: "*", Resource: "arn:aws:s3:::bucket/${*}" },
      request: ctx("arn:aws:s3:::bucket/*"),
      denied: true,
    },
    {
      rule: "${?} and ${$} are literal",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { StringEquals: { "custom:Value": "a${?}b${$}" } },
      },
      request: ctx("*", { "custom:Value": "a?b$" }),
      denied: true,
    },
    {
      rule: "default value when the key is missing",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { StringEquals: { "aws:ResourceTag/owner": "${aws:PrincipalTag/team, 'unowned'}" } },
      },
      request: ctx("*", { "aws:ResourceTag/owner": "unowned" }),
      denied: true,
    },
    {
      rule: "unresolvable variable: the statement does not apply",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { StringNotEquals: { "aws:ResourceTag/owner": "${aws:PrincipalTag/team}" } },
      },
      request: ctx("*", { "aws:ResourceTag/owner": "data" }),
      denied: false,
    },
    {
      rule: "Version 2008-10-17 takes variables literally",
      version: "2008-10-17",
      statement: {
        Action: "*",
        Resource: "*",
        Condition: { StringEquals: { "custom:Value": "${aws:PrincipalAccount}" } },
      },
      request: ctx("*", { "custom:Value": "${aws:PrincipalAccount}" }),
      denied: true,
    },
  ]);
});

describe("decisions across policies and the organization tree", () => {
  // AWS Organizations, "SCP evaluation": an explicit Deny in any SCP overrides any Allow; for a
  // request to be allowed, every level from the root to the account must have an SCP that allows it.
  const denyRegions = denyPolicy({
    Action: "*",
    Resource: "*",
    Condition: { StringNotEquals: { "aws:RequestedRegion": ["eu-west-1"] } },
  });
  const allowS3Only: ScpPolicy = {
    id: "p-s3",
    arn: "arn:aws:organizations::111122223333:policy/o-1/service_control_policy/p-s3",
    name: "s3-only",
    document: {
      Version: "2012-10-17",
      Statement: { Sid: "OnlyS3", Effect: "Allow", Action: "s3:*", Resource: "*" },
    },
  };
  const inRegion = request("ec2:RunInstances", "*", { "aws:RequestedRegion": "eu-west-1" });
  const outOfRegion = request("ec2:RunInstances", "*", { "aws:RequestedRegion": "us-east-1" });

  it.each([
    {
      name: "no Allow at a level is an implicit deny",
      policies: [denyRegions],
      req: inRegion,
      decision: "implicit_deny",
    },
    { name: "FullAWSAccess allows", policies: [fullAccess], req: inRegion, decision: "allow" },
    {
      name: "explicit deny beats FullAWSAccess",
      policies: [fullAccess, denyRegions],
      req: outOfRegion,
      decision: "explicit_deny",
    },
    {
      name: "no policies at all is an implicit deny",
      policies: [],
      req: inRegion,
      decision: "implicit_deny",
    },
  ])("policy set: $name", ({ policies, req, decision }) => {
    expect(evaluatePolicySet(req, policies).decision).toBe(decision);
  });

  it.each([
    {
      name: "every level allows",
      levels: [[fullAccess], [fullAccess], [fullAccess]],
      req: inRegion,
      decision: "allow",
      policy: "p-FullAWSAccess",
    },
    {
      name: "a level without an Allow denies",
      levels: [[fullAccess], [allowS3Only], [fullAccess]],
      req: inRegion,
      decision: "implicit_deny",
      policy: undefined,
    },
    {
      name: "a restrictive OU still allows what it lists",
      levels: [[fullAccess], [allowS3Only], [fullAccess]],
      req: request("s3:GetObject"),
      decision: "allow",
      policy: "p-FullAWSAccess",
    },
    {
      name: "explicit deny at the root wins",
      levels: [[fullAccess, denyRegions], [fullAccess], [fullAccess]],
      req: outOfRegion,
      decision: "explicit_deny",
      policy: "p-deny",
    },
    {
      name: "explicit deny at the account wins over a missing Allow above",
      levels: [[fullAccess], [allowS3Only], [denyRegions]],
      req: outOfRegion,
      decision: "explicit_deny",
      policy: "p-deny",
    },
    {
      name: "allow names the policy nearest the account",
      levels: [[fullAccess], [allowS3Only]],
      req: request("s3:GetObject"),
      decision: "allow",
      policy: "p-s3",
    },
  ])("hierarchy: $name", ({ levels, req, decision, policy }) => {
    const result = evaluateScpHierarchy(req, levels);
    expect(result.decision).toBe(decision);
    expect(result.policy?.id).toBe(policy);
  });

  it("reports the deciding statement's index and Sid", () => {
    const policy: ScpPolicy = {
      id: "p-multi",
      arn: "arn:aws:organizations::111122223333:policy/o-1/service_control_policy/p-multi",
      name: "palisade-ABCDEFG-multi",
      document: JSON.stringify({
        Version: "2012-10-17",
        Statement: [
          {
            Sid: "ABCDEFGRoot",
            Effect: "Deny",
            Action: "*",
            Resource: "*",
            Condition: { StringLike: { "aws:PrincipalArn": "arn:aws:iam::*:root" } },
          },
          {
            Sid: "ABCDEFGImds",
            Effect: "Deny",
            Action: "ec2:RunInstances",
            Resource: "arn:aws:ec2:*:*:instance/*",
            Condition: { StringNotEquals: { "ec2:MetadataHttpTokens": "required" } },
          },
        ],
      }),
    };
    const result = evaluatePolicySet(
      request("ec2:RunInstances", "arn:aws:ec2:eu-west-1:111122223333:instance/i-1", {
        "ec2:MetadataHttpTokens": "optional",
      }),
      [fullAccess, policy],
    );
    expect(result).toEqual({ decision: "explicit_deny", policy, statementIndex: 1, sid: "ABCDEFGImds" });
  });

  it("honours a waiver-style exception bounded by aws:CurrentTime", () => {
    const waived = denyPolicy({
      Action: "s3:PutBucketPolicy",
      Resource: "*",
      Condition: {
        ArnNotLike: { "aws:PrincipalArn": [PRINCIPAL] },
      },
    });
    const timeBounded = denyPolicy({
      Action: "s3:PutBucketPolicy",
      Resource: "*",
      Condition: { DateGreaterThanEquals: { "aws:CurrentTime": "2026-03-01T00:00:00Z" } },
    });
    const before = request("s3:PutBucketPolicy", "*", { "aws:CurrentTime": "2026-02-28T23:59:59Z" });
    const after = request("s3:PutBucketPolicy", "*", { "aws:CurrentTime": "2026-03-01T00:00:00Z" });
    expect(evaluatePolicySet(before, [fullAccess, waived]).decision).toBe("allow");
    expect(evaluatePolicySet(before, [fullAccess, timeBounded]).decision).toBe("allow");
    expect(evaluatePolicySet(after, [fullAccess, timeBounded]).decision).toBe("explicit_deny");
  });
});

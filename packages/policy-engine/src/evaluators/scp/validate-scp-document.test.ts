import { describe, expect, it } from "vitest";
import { validateScpDocument } from "./validate-scp-document";

const valid = {
  Version: "2012-10-17",
  Statement: [
    {
      Sid: "DenyOutsideEu",
      Effect: "Deny",
      NotAction: ["iam:*", "sts:*"],
      Resource: "*",
      Condition: {
        StringNotEquals: { "aws:RequestedRegion": ["eu-west-1", "eu-central-1"] },
        "ForAnyValue:StringLike": { "aws:TagKeys": "sec*" },
        NumericLessThanIfExists: { "ec2:VolumeSize": 10 },
        Null: { "aws:RequestTag/owner": "true" },
        IpAddress: { "aws:SourceIp": ["10.0.0.0/8", "2001:db8::/32"] },
        DateLessThan: { "aws:CurrentTime": "2026-01-01T00:00:00Z" },
        Bool: { "aws:SecureTransport": false },
      },
    },
    { Effect: "Allow", Action: "*", Resource: "*" },
  ],
};

describe("validateScpDocument", () => {
  it("accepts a well-formed SCP given as an object or as JSON text", () => {
    expect(validateScpDocument(valid)).toEqual({ valid: true, errors: [] });
    expect(validateScpDocument(JSON.stringify(valid)).valid).toBe(true);
    expect(validateScpDocument({ Statement: { Effect: "Deny", Action: "s3:*", Resource: "*" } }).valid).toBe(
      true,
    );
  });

  // IAM docs, "IAM JSON policy element reference" and Organizations "SCP syntax": the elements a
  // statement may hold, mutually exclusive pairs, Sid characters, and no Principal in SCPs.
  const statement = (extra: Record<string, unknown>) => ({
    Version: "2012-10-17",
    Statement: [{ Effect: "Deny", Action: "*", Resource: "*", ...extra }],
  });
  it.each([
    { name: "invalid JSON", doc: "{not json", path: "" },
    { name: "array instead of object", doc: [], path: "" },
    { name: "unknown top-level element", doc: { ...valid, Extra: 1 }, path: "Extra" },
    { name: "unsupported Version", doc: { ...valid, Version: "2020-01-01" }, path: "Version" },
    { name: "no Statement", doc: { Version: "2012-10-17" }, path: "Statement" },
    { name: "empty Statement list", doc: { Version: "2012-10-17", Statement: [] }, path: "Statement" },
    { name: "bad Effect", doc: statement({ Effect: "Block" }), path: "Statement[0].Effect" },
    {
      name: "Principal is not supported",
      doc: statement({ Principal: "*" }),
      path: "Statement[0].Principal",
    },
    { name: "unknown statement element", doc: statement({ Actions: "*" }), path: "Statement[0].Actions" },
    { name: "both Action and NotAction", doc: statement({ NotAction: "iam:*" }), path: "Statement[0]" },
    {
      name: "neither Resource nor NotResource",
      doc: { Statement: [{ Effect: "Deny", Action: "*" }] },
      path: "Statement[0]",
    },
    { name: "malformed action", doc: statement({ Action: "RunInstances" }), path: "Statement[0].Action" },
    {
      name: "resource that is not an ARN",
      doc: statement({ Resource: "bucket/*" }),
      path: "Statement[0].Resource",
    },
    { name: "Sid with punctuation", doc: statement({ Sid: "deny-all" }), path: "Statement[0].Sid" },
    {
      name: "unknown condition operator",
      doc: statement({ Condition: { StringMatches: { "aws:RequestedRegion": "x" } } }),
      path: "Statement[0].Condition.StringMatches",
    },
    {
      name: "IfExists on Null",
      doc: statement({ Condition: { NullIfExists: { "aws:TagKeys": "true" } } }),
      path: "Statement[0].Condition.NullIfExists",
    },
    {
      name: "set operator on Null",
      doc: statement({ Condition: { "ForAnyValue:Null": { "aws:TagKeys": "true" } } }),
      path: "Statement[0].Condition.ForAnyValue:Null",
    },
    {
      name: "non-numeric numeric value",
      doc: statement({ Condition: { NumericLessThan: { "ec2:VolumeSize": "big" } } }),
      path: "Statement[0].Condition.NumericLessThan",
    },
    {
      name: "invalid date",
      doc: statement({ Condition: { DateLessThan: { "aws:CurrentTime": "tomorrow" } } }),
      path: "Statement[0].Condition.DateLessThan",
    },
    {
      name: "invalid CIDR",
      doc: statement({ Condition: { IpAddress: { "aws:SourceIp": "10.0.0.0/33" } } }),
      path: "Statement[0].Condition.IpAddress",
    },
    {
      name: "invalid Bool value",
      doc: statement({ Condition: { Bool: { "aws:SecureTransport": "yes" } } }),
      path: "Statement[0].Condition.Bool",
    },
    {
      name: "object as a condition value",
      doc: statement({ Condition: { StringEquals: { "aws:RequestedRegion": { a: 1 } } } }),
      path: "Statement[0].Condition.StringEquals.aws:RequestedRegion",
    },
  ])("rejects $name", ({ doc, path }) => {
    const result = validateScpDocument(doc);
    expect(result.valid).toBe(false);
    expect(result.errors.map((error) => error.path)).toContain(path);
  });

  it("rejects duplicate Sids", () => {
    const result = validateScpDocument({
      Statement: [
        { Sid: "Same", Effect: "Deny", Action: "s3:*", Resource: "*" },
        { Sid: "Same", Effect: "Deny", Action: "ec2:*", Resource: "*" },
      ],
    });
    expect(result.errors).toEqual([{ path: "Statement[1].Sid", message: "Duplicate Sid Same" }]);
  });
});

// https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_rcps_syntax.html
describe("validateScpDocument for resource control policies", () => {
  const rcp = (statement: Record<string, unknown>, version: string | null = "2012-10-17") => ({
    ...(version ? { Version: version } : {}),
    Statement: [{ Effect: "Deny", Principal: "*", Action: "s3:*", Resource: "*", ...statement }],
  });
  const paths = (doc: unknown) => validateScpDocument(doc, "rcp").errors.map((e) => e.path);

  it('accepts Deny statements with Principal "*" on the supported services', () => {
    expect(
      validateScpDocument(
        rcp({ Action: ["s3:GetObject", "sts:AssumeRole", "kms:Decrypt", "sqs:*", "secretsmanager:*"] }),
        "rcp",
      ),
    ).toEqual({ valid: true, errors: [] });
  });

  it("refuses Allow, another Principal, NotPrincipal, NotAction, other services and a missing Version", () => {
    expect(paths(rcp({ Effect: "Allow" }))).toEqual(["Statement[0].Effect"]);
    expect(paths(rcp({ Principal: { AWS: "*" } }))).toEqual(["Statement[0].Principal"]);
    expect(paths(rcp({ Principal: undefined }))).toEqual(["Statement[0].Principal"]);
    expect(paths(rcp({ NotPrincipal: { AWS: "arn:aws:iam::111122223333:root" } }))).toContain(
      "Statement[0].NotPrincipal",
    );
    expect(paths(rcp({ Action: undefined, NotAction: "s3:GetObject" }))).toContain("Statement[0].NotAction");
    expect(paths(rcp({ Action: "ec2:RunInstances" }))).toEqual(["Statement[0].Action"]);
    expect(paths(rcp({}, null))).toEqual(["Version"]);
    // An SCP still refuses Principal.
    expect(validateScpDocument(rcp({})).valid).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { awsDefinition, bundle, KEY, NOW, syntheticAws } from "../../../test/bundles";
import type { AwsTreeNode, IamStatementTemplate } from "../../catalogue/definition-schema";
import { FULL_AWS_ACCESS } from "../../catalogue/run-cases";
import { type ContextValue, evaluateScpHierarchy, type IamRequest } from "../../evaluators/scp/evaluate-scp";
import { validateScpDocument } from "../../evaluators/scp/validate-scp-document";
import { type ActiveWaiver, CompileError } from "../compile-input";
import { compileScp } from "./compile-scp";

const DEV = "arn:aws:iam::111122223333:role/Developer";

function request(
  action: string,
  context: Record<string, ContextValue> = {},
  extra: Partial<IamRequest> = {},
): IamRequest {
  return { action, resource: "*", principalArn: DEV, context, ...extra };
}

/** Whether the compiled SCP, attached under FullAWSAccess, explicitly denies the request. */
function denies(content: string, req: IamRequest): boolean {
  const scp = {
    id: "p-test0000",
    arn: "arn:aws:organizations::999988887777:policy/o-abc/service_control_policy/p-test0000",
    name: "t",
    document: content,
  };
  return evaluateScpHierarchy(req, [[FULL_AWS_ACCESS, scp]]).decision === "explicit_deny";
}

const deny = (Action: string, Condition?: IamStatementTemplate["Condition"]): AwsTreeNode => ({
  atomic: { Effect: "Deny", Action, Resource: "*", ...(Condition ? { Condition } : {}) },
});

describe("compileScp output", () => {
  const compiled = compileScp(bundle({ definition: awsDefinition("require-ec2-imdsv2") }));
  const document = JSON.parse(compiled.content);

  it("names the policy after key and slug and mentions the key in the description", () => {
    expect(compiled.name).toBe(`palisade-${KEY}-require-ec2-imdsv2`);
    expect(compiled.description).toContain(KEY);
    expect(compiled.description.length).toBeLessThanOrEqual(512);
  });

  it("is a minified, valid SCP whose statements all carry the key in their Sid", () => {
    expect(compiled.content).toBe(JSON.stringify(document));
    expect(validateScpDocument(compiled.content)).toEqual({ valid: true, errors: [] });
    expect(document.Statement).toHaveLength(2);
    for (const statement of document.Statement) expect(statement.Sid).toContain(KEY);
  });

  it("substitutes parameters, numbers becoming IAM strings", () => {
    const three = JSON.parse(
      compileScp(
        bundle({ definition: awsDefinition("require-ec2-imdsv2"), parameters: { max_hop_limit: 3 } }),
      ).content,
    );
    expect(three.Statement[1].Condition.NumericGreaterThan["ec2:MetadataHttpPutResponseHopLimit"]).toBe("3");
  });

  it("substitutes an array parameter as a list", () => {
    const regions = JSON.parse(
      compileScp(
        bundle({
          definition: awsDefinition("deny-regions-outside-allowlist"),
          parameters: { allowed_regions: ["eu-central-1", "eu-west-3"] },
        }),
      ).content,
    );
    expect(regions.Statement[0].Condition.StringNotEquals["aws:RequestedRegion"]).toEqual([
      "eu-central-1",
      "eu-west-3",
    ]);
  });

  it("attaches in PREVENT mode only; ALERT keeps the document for evaluating the audit stream", () => {
    expect(compiled.attach).toBe(true);
    const alert = compileScp(bundle({ definition: awsDefinition("require-ec2-imdsv2"), mode: "ALERT" }));
    expect(alert.attach).toBe(false);
    expect(alert.content).toBe(compiled.content);
  });

  it("targets the scopes that are not excluded", () => {
    const out = compileScp(
      bundle({
        definition: awsDefinition("deny-leave-organization"),
        scopes: [{ id: "ou-ab12-11111111" }, { id: "222233334444" }],
        excludedScopes: [{ id: "222233334444" }],
      }),
    );
    expect(out.targets).toEqual(["ou-ab12-11111111"]);
  });

  it("rejects invalid parameters with the field named", () => {
    expect(() =>
      compileScp(
        bundle({ definition: awsDefinition("require-ec2-imdsv2"), parameters: { max_hop_limit: 9 } }),
      ),
    ).toThrow(/parameters\.max_hop_limit: Maximum metadata hop limit: 9 is not one of the allowed values/);
  });
});

describe("tree semantics, checked by evaluating the compiled SCP", () => {
  const cases: [string, AwsTreeNode, [IamRequest, boolean][]][] = [
    [
      "or: either statement denies",
      { junction: { operator: "or", nodes: [deny("s3:DeleteBucket"), deny("ec2:TerminateInstances")] } },
      [
        [request("s3:DeleteBucket"), true],
        [request("ec2:TerminateInstances"), true],
        [request("s3:GetObject"), false],
      ],
    ],
    [
      "and: conditions conjoin",
      {
        junction: {
          operator: "and",
          nodes: [
            deny("s3:PutObject", { StringNotEquals: { "s3:x-amz-server-side-encryption": "aws:kms" } }),
            deny("s3:PutObject", { StringEquals: { "aws:RequestedRegion": "eu-west-1" } }),
          ],
        },
      },
      [
        [
          request("s3:PutObject", {
            "s3:x-amz-server-side-encryption": "AES256",
            "aws:RequestedRegion": "eu-west-1",
          }),
          true,
        ],
        [
          request("s3:PutObject", {
            "s3:x-amz-server-side-encryption": "aws:kms",
            "aws:RequestedRegion": "eu-west-1",
          }),
          false,
        ],
        [
          request("s3:PutObject", {
            "s3:x-amz-server-side-encryption": "AES256",
            "aws:RequestedRegion": "us-east-1",
          }),
          false,
        ],
      ],
    ],
    [
      "and distributes over or",
      {
        junction: {
          operator: "and",
          nodes: [
            {
              junction: {
                operator: "or",
                nodes: [
                  deny("ec2:RunInstances", { StringEquals: { "ec2:InstanceType": "p5.48xlarge" } }),
                  deny("ec2:RunInstances", { StringEquals: { "ec2:InstanceType": "u-24tb1.metal" } }),
                ],
              },
            },
            deny("ec2:RunInstances", { StringNotEquals: { "aws:PrincipalTag/team": "ml" } }),
          ],
        },
      },
      [
        [
          request("ec2:RunInstances", { "ec2:InstanceType": "p5.48xlarge", "aws:PrincipalTag/team": "web" }),
          true,
        ],
        [request("ec2:RunInstances", { "ec2:InstanceType": "u-24tb1.metal" }), true],
        [
          request("ec2:RunInstances", { "ec2:InstanceType": "p5.48xlarge", "aws:PrincipalTag/team": "ml" }),
          false,
        ],
        [
          request("ec2:RunInstances", { "ec2:InstanceType": "t3.micro", "aws:PrincipalTag/team": "web" }),
          false,
        ],
      ],
    ],
    [
      "not over several keys denies when any of them fails",
      {
        junction: {
          operator: "not",
          nodes: [
            deny("s3:PutBucketPolicy", {
              StringEquals: { "aws:PrincipalTag/role": "platform", "aws:RequestedRegion": "eu-west-1" },
            }),
          ],
        },
      },
      [
        [
          request("s3:PutBucketPolicy", {
            "aws:PrincipalTag/role": "platform",
            "aws:RequestedRegion": "eu-west-1",
          }),
          false,
        ],
        [
          request("s3:PutBucketPolicy", {
            "aws:PrincipalTag/role": "dev",
            "aws:RequestedRegion": "eu-west-1",
          }),
          true,
        ],
        [request("s3:PutBucketPolicy", { "aws:RequestedRegion": "eu-west-1" }), true],
        [
          request("s3:PutBucketPolicy", {
            "aws:PrincipalTag/role": "platform",
            "aws:RequestedRegion": "us-east-1",
          }),
          true,
        ],
      ],
    ],
    [
      "policy_reference inlines another definition",
      {
        junction: {
          operator: "or",
          nodes: [{ policy_reference: "deny-leave-organization" }, deny("account:CloseAccount")],
        },
      },
      [
        [request("organizations:LeaveOrganization"), true],
        [request("account:CloseAccount"), true],
        [request("organizations:DescribeOrganization"), false],
      ],
    ],
  ];

  it.each(cases)("%s", (_name, tree, expectations) => {
    const content = compileScp(bundle({ definition: syntheticAws(tree) })).content;
    for (const [req, expected] of expectations) {
      expect(denies(content, req), `${req.action} ${JSON.stringify(req.context)}`).toBe(expected);
    }
  });

  // not(X) must deny exactly when X does not, including for keys missing from the request.
  const operators: [string, Record<string, ContextValue | undefined>[], string | string[]][] = [
    ["StringEquals", [{ k: "a" }, { k: "b" }, {}], "a"],
    ["StringEqualsIfExists", [{ k: "a" }, { k: "b" }, {}], "a"],
    ["StringNotEqualsIfExists", [{ k: "a" }, { k: "b" }, {}], "a"],
    ["StringLike", [{ k: "prod-1" }, { k: "dev-1" }, {}], "prod-*"],
    [
      "ArnLike",
      [{ k: "arn:aws:iam::111122223333:role/Admin" }, { k: "arn:aws:iam::111122223333:role/Dev" }, {}],
      "arn:aws:iam::*:role/Admin",
    ],
    ["NumericLessThan", [{ k: 1 }, { k: 5 }, {}], "3"],
    ["NumericGreaterThanIfExists", [{ k: 1 }, { k: 5 }, {}], "3"],
    [
      "DateLessThan",
      [{ k: "2026-01-01T00:00:00Z" }, { k: "2027-01-01T00:00:00Z" }, {}],
      "2026-06-01T00:00:00Z",
    ],
    ["Bool", [{ k: true }, { k: false }, {}], "true"],
    ["BoolIfExists", [{ k: true }, { k: false }, {}], "true"],
    ["Null", [{ k: "x" }, {}], "true"],
    ["IpAddress", [{ k: "10.1.2.3" }, { k: "192.168.0.1" }, {}], "10.0.0.0/8"],
    ["ForAnyValue:StringEquals", [{ k: ["a", "z"] }, { k: ["y", "z"] }, {}], ["a", "b"]],
    ["ForAllValues:StringLike", [{ k: ["a1", "a2"] }, { k: ["a1", "b1"] }, {}], "a*"],
  ];

  it.each(operators)("not(%s) is the exact complement", (operator, contexts, value) => {
    const atomic = deny("s3:GetObject", { [operator]: { "test:Key": value } });
    const plain = compileScp(bundle({ definition: syntheticAws(atomic) })).content;
    const negated = compileScp(
      bundle({ definition: syntheticAws({ junction: { operator: "not", nodes: [atomic] } }) }),
    ).content;
    for (const context of contexts) {
      const ctx: Record<string, ContextValue> = context.k === undefined ? {} : { "test:Key": context.k };
      const req = request("s3:GetObject", ctx);
      expect(denies(negated, req), JSON.stringify(ctx)).toBe(!denies(plain, req));
    }
  });

  it.each<[string, AwsTreeNode, RegExp]>([
    [
      "and over different actions",
      { junction: { operator: "and", nodes: [deny("s3:GetObject"), deny("s3:PutObject")] } },
      /same Action/,
    ],
    [
      "and over different resources",
      {
        junction: {
          operator: "and",
          nodes: [
            { atomic: { Effect: "Deny", Action: "s3:GetObject", Resource: "arn:aws:s3:::a/*" } },
            { atomic: { Effect: "Deny", Action: "s3:GetObject", Resource: "arn:aws:s3:::b/*" } },
          ],
        },
      },
      /different resources/,
    ],
    [
      "not over a junction",
      {
        junction: {
          operator: "not",
          nodes: [{ junction: { operator: "or", nodes: [deny("s3:GetObject")] } }],
        },
      },
      /exactly one atomic/,
    ],
    ["a reference cycle", { policy_reference: "synthetic" }, /cycle/],
  ])("rejects %s", (_name, tree, message) => {
    let error: unknown;
    try {
      compileScp(bundle({ definition: syntheticAws(tree) }));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CompileError);
    expect((error as CompileError).code).toBe("INVALID_TREE");
    expect((error as Error).message).toMatch(message);
  });
});

describe("waivers and excluded scopes", () => {
  const expires = (hours: number) => new Date(NOW.getTime() + hours * 3_600_000);
  const at = (hours: number) => new Date(NOW.getTime() + hours * 3_600_000).toISOString();
  const waiver = (id: string, hours: number, what: Partial<ActiveWaiver>): ActiveWaiver => ({
    id,
    key: KEY,
    expiresAt: expires(hours),
    ...what,
  });
  const leave = (principalArn: string, context: Record<string, ContextValue>) =>
    request("organizations:LeaveOrganization", context, { principalArn });

  const content = compileScp(
    bundle({
      definition: awsDefinition("deny-leave-organization"),
      excludedScopes: [{ id: "ou-ab12-99999999" }],
      waivers: [
        waiver("w-principal", 24, { principalArn: "arn:aws:iam::111122223333:role/Migration" }),
        waiver("w-account", 48, { accountId: "444455556666" }),
        waiver("w-ou", 24, { scope: "ou-ab12-22222222" }),
        waiver("w-expired", -1, { accountId: "777788889999" }),
      ],
    }),
  ).content;

  it.each<[string, IamRequest, boolean]>([
    [
      "waived principal before expiry",
      leave("arn:aws:iam::111122223333:role/Migration", { "aws:CurrentTime": at(1) }),
      false,
    ],
    [
      "waived principal after expiry",
      leave("arn:aws:iam::111122223333:role/Migration", { "aws:CurrentTime": at(25) }),
      true,
    ],
    ["another principal of the same account", leave(DEV, { "aws:CurrentTime": at(1) }), true],
    [
      "waived account before its later expiry",
      leave("arn:aws:iam::444455556666:role/Admin", { "aws:CurrentTime": at(30) }),
      false,
    ],
    [
      "waived account after expiry",
      leave("arn:aws:iam::444455556666:role/Admin", { "aws:CurrentTime": at(49) }),
      true,
    ],
    [
      "account in a waived OU",
      leave("arn:aws:iam::555566667777:role/Admin", {
        "aws:CurrentTime": at(1),
        "aws:PrincipalOrgPaths": ["o-abc1234567/r-ab12/ou-ab12-22222222/"],
      }),
      false,
    ],
    [
      "account in the excluded OU, long after every waiver",
      leave("arn:aws:iam::555566667777:role/Admin", {
        "aws:CurrentTime": at(500),
        "aws:PrincipalOrgPaths": ["o-abc1234567/r-ab12/ou-ab12-99999999/"],
      }),
      false,
    ],
    [
      "account of an expired waiver",
      leave("arn:aws:iam::777788889999:role/Admin", { "aws:CurrentTime": at(1) }),
      true,
    ],
  ])("%s", (_name, req, expected) => {
    expect(denies(content, req)).toBe(expected);
  });

  it("bounds every waiver window by aws:CurrentTime", () => {
    const statements = JSON.parse(content).Statement as {
      Condition: Record<string, Record<string, string>>;
    }[];
    expect(statements).toHaveLength(3);
    expect(statements[0]!.Condition.DateLessThan).toEqual({ "aws:CurrentTime": "2026-03-02T08:00:00Z" });
    expect(statements[1]!.Condition.DateGreaterThanEquals).toEqual({
      "aws:CurrentTime": "2026-03-02T08:00:00Z",
    });
    expect(statements[1]!.Condition.DateLessThan).toEqual({ "aws:CurrentTime": "2026-03-03T08:00:00Z" });
    expect(statements[2]!.Condition.DateLessThan).toBeUndefined();
  });

  it("waives a resource with NotResource when the statement covers every resource", () => {
    const out = compileScp(
      bundle({
        definition: syntheticAws(deny("s3:DeleteBucket")),
        waivers: [waiver("w-res", 5, { resource: "arn:aws:s3:::legacy-exports" })],
      }),
    ).content;
    const del = (resource: string, hours: number) =>
      request("s3:DeleteBucket", { "aws:CurrentTime": at(hours) }, { resource });
    expect(denies(out, del("arn:aws:s3:::legacy-exports", 1))).toBe(false);
    expect(denies(out, del("arn:aws:s3:::other", 1))).toBe(true);
    expect(denies(out, del("arn:aws:s3:::legacy-exports", 6))).toBe(true);
  });

  it.each<[string, Partial<ActiveWaiver>, RegExp]>([
    [
      "a resource of a policy naming specific resources",
      { resource: "arn:aws:ec2:eu-west-1:111122223333:instance/i-0abc" },
      /names specific resources/,
    ],
    ["an unknown scope", { scope: "/subscriptions/abc" }, /not an AWS account id/],
    ["two targets at once", { accountId: "111122223333", principalArn: DEV }, /exactly one/],
  ])("rejects a waiver of %s", (_name, what, message) => {
    expect(() =>
      compileScp(
        bundle({ definition: awsDefinition("require-ec2-imdsv2"), waivers: [waiver("w", 5, what)] }),
      ),
    ).toThrow(message);
  });
});

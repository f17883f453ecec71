import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { ScopeSchema } from "@palisade/api/gen/palisade/common/v1/common_pb";
import type { Definition } from "@palisade/policy-engine/catalogue/definition-schema";
import { describe, expect, it } from "vitest";
import type { HierarchyNodeRow } from "../connector/connector-repository";
import { parseName, parseNamespace, refuseManagementAccount, resolveScopes } from "./bundle-input";

const awsDefinition = { slug: "deny-something", enforcer: "aws_scp" } as Definition;

function hierarchyNode(externalId: string, provider: string, connectorId = "c-aws"): HierarchyNodeRow {
  const now = new Date();
  return {
    id: `n-${externalId}`,
    tenantId: "t",
    connectorId,
    provider,
    externalId,
    parentExternalId: null,
    name: `name of ${externalId}`,
    type: provider === "aws" ? "AWS_OU" : "AZURE_SUBSCRIPTION",
    link: null,
    createdAt: now,
    updatedAt: now,
  };
}

const nodes = [
  hierarchyNode("ou-abcd-11111111", "aws"),
  hierarchyNode("ou-abcd-22222222", "aws"),
  hierarchyNode("ou-wxyz-33333333", "aws", "c-other"),
  hierarchyNode("/subscriptions/s1", "azure", "c-azure"),
];

const scope = (externalId: string, connectorId = "") => create(ScopeSchema, { externalId, connectorId });

function message(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    const connect = ConnectError.from(error);
    expect(connect.code).toBe(Code.InvalidArgument);
    return connect.rawMessage;
  }
  throw new Error("accepted");
}

describe("resolveScopes", () => {
  it("stores the hierarchy's names and types and the connector", () => {
    const { scopes, excluded, connectorId } = resolveScopes(
      awsDefinition,
      [scope("ou-abcd-11111111")],
      [scope("ou-abcd-22222222")],
      nodes,
    );
    expect(connectorId).toBe("c-aws");
    expect(scopes).toEqual([
      {
        externalId: "ou-abcd-11111111",
        name: "name of ou-abcd-11111111",
        type: "AWS_OU",
        provider: "aws",
        connectorId: "c-aws",
      },
    ]);
    expect(excluded.map((s) => s.externalId)).toEqual(["ou-abcd-22222222"]);
  });

  it.each([
    [[], [], /scopes: choose at least one/],
    [[scope("ou-none-00000000")], [], /scopes\[0\]: ou-none-00000000 is not in any connected hierarchy/],
    [[scope("/subscriptions/s1")], [], /is an AZURE scope, but deny-something is a policy for AWS/],
    [
      [scope("ou-abcd-11111111"), scope("ou-wxyz-33333333")],
      [],
      /scopes\[1\]: all scopes of a bundle must belong to one connector/,
    ],
    [[scope("ou-abcd-11111111"), scope("ou-abcd-11111111")], [], /listed twice/],
    [[scope("ou-abcd-11111111")], [scope("ou-abcd-11111111")], /also a target scope/],
    [[scope("ou-abcd-11111111", "c-other")], [], /not in any connected hierarchy/],
    [[scope("")], [], /scopes\[0\]: external_id is required/],
  ])("refuses %j excluding %j", (requested, excluded, expected) => {
    expect(message(() => resolveScopes(awsDefinition, requested, excluded, nodes))).toMatch(expected);
  });
});

describe("names and namespaces", () => {
  it.each([
    ["  Keep S3 closed  ", "Keep S3 closed"],
    ["x".repeat(120), "x".repeat(120)],
  ])("accepts name %j", (raw, expected) => {
    expect(parseName(raw)).toBe(expected);
  });

  // Lengths are bounds of the contract, refused before a handler runs (request-bounds.test.ts).
  it.each([[""], ["   "]])("refuses name %j", (raw) => {
    expect(message(() => parseName(raw))).toMatch(/^name: /);
  });

  it.each([
    [undefined, null],
    ["", null],
    [" team-a ", "team-a"],
  ])("namespace %j -> %j", (raw, expected) => {
    expect(parseNamespace(raw)).toBe(expected);
  });
});

// https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_scps.html:
// SCPs never restrict the management account.
describe("refuseManagementAccount", () => {
  const stored = (externalId: string, type = "AWS_ACCOUNT") => ({
    externalId,
    name: externalId,
    type,
    provider: "aws" as const,
    connectorId: "c-aws",
  });

  it("refuses the management account as a target, naming its field and the reason", () => {
    const refused = message(() =>
      refuseManagementAccount(
        [stored("r-abcd", "AWS_ORGANIZATION_ROOT"), stored("999988887777")],
        "999988887777",
      ),
    );
    expect(refused).toMatch(/999988887777 is the organisation's management account/);
  });

  it("accepts member accounts, OUs and the root above the management account", () => {
    expect(() =>
      refuseManagementAccount(
        [
          stored("r-abcd", "AWS_ORGANIZATION_ROOT"),
          stored("ou-abcd-11111111", "AWS_OU"),
          stored("111122223333"),
        ],
        "999988887777",
      ),
    ).not.toThrow();
    expect(() => refuseManagementAccount([stored("999988887777")], undefined)).not.toThrow();
  });
});

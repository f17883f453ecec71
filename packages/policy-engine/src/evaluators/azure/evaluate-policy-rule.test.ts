// biome-ignore-all lint/suspicious/noThenProperty: Azure policy rules are { if, then } objects.
import { describe, expect, it } from "vitest";
import type { AzureResource } from "./azure-resource";
import { evaluatePolicyRule } from "./evaluate-policy-rule";
import { aliases, networkInterface, SUBSCRIPTION, storageAccount } from "./test-fixtures";

const STORAGE = "Microsoft.Storage/storageAccounts";

type Case = {
  rule: string;
  if: unknown;
  applies: boolean;
  resource?: AzureResource;
  parameters?: Record<string, unknown>;
};

function check(cases: Case[]) {
  it.each(cases)("$rule", ({ if: condition, applies, resource, parameters }) => {
    const result = evaluatePolicyRule(
      { if: condition, then: { effect: "deny" } },
      resource ?? storageAccount(),
      parameters ?? {},
      aliases,
    );
    expect(result.applies).toBe(applies);
  });
}

describe("fields", () => {
  // Azure Policy "policy rule" docs, Fields: type, name, fullName, kind, location, id, tags,
  // tags['name'], tags.name and property aliases; tag names compare case-insensitively.
  check([
    { rule: "type", if: { field: "type", equals: "microsoft.storage/storageaccounts" }, applies: true },
    { rule: "name", if: { field: "name", equals: "stapp" }, applies: true },
    { rule: "location", if: { field: "location", in: ["westeurope", "northeurope"] }, applies: true },
    {
      rule: "location is normalized",
      resource: storageAccount({ location: "West Europe" }),
      if: { field: "location", in: ["westeurope"] },
      applies: true,
    },
    {
      rule: "tags with doubled apostrophes",
      resource: storageAccount({ tags: { "'quoted'": "yes" } }),
      if: { field: "tags['''quoted''']", equals: "yes" },
      applies: true,
    },
    { rule: "kind", if: { field: "kind", equals: "BlobStorage" }, applies: false },
    { rule: "id", if: { field: "id", like: `${SUBSCRIPTION}/resourceGroups/rg-app/*` }, applies: true },
    { rule: "tags object", if: { field: "tags", containsKey: "environment" }, applies: true },
    { rule: "tags['name'] supports dots", if: { field: "tags['cost.center']", equals: "42" }, applies: true },
    { rule: "tags.name", if: { field: "tags.Environment", equals: "PROD" }, applies: true },
    {
      rule: "tag names are case-insensitive",
      if: { field: "tags[environment]", equals: "prod" },
      applies: true,
    },
    { rule: "missing tag does not exist", if: { field: "tags['owner']", exists: false }, applies: true },
    {
      rule: "alias resolved through the alias table",
      if: { field: `${STORAGE}/supportsHttpsTrafficOnly`, equals: true },
      applies: true,
    },
    {
      rule: "alias names are case-insensitive",
      if: { field: "microsoft.storage/storageaccounts/MINIMUMTLSVERSION", equals: "tls1_2" },
      applies: true,
    },
    {
      rule: "alias of another resource type has no value",
      if: {
        field: "Microsoft.Network/networkInterfaces/ipconfigurations[*].publicIpAddress.id",
        exists: false,
      },
      applies: true,
    },
    { rule: "sku alias", if: { field: `${STORAGE}/sku.name`, like: "Standard_*" }, applies: true },
    {
      rule: "fullName of a child resource",
      resource: {
        id: `${SUBSCRIPTION}/resourceGroups/rg/providers/Microsoft.Sql/servers/sql1/databases/db1`,
        type: "Microsoft.Sql/servers/databases",
        name: "db1",
      },
      if: { field: "fullName", equals: "sql1/db1" },
      applies: true,
    },
    {
      rule: "field given as an expression",
      parameters: { tagName: "Environment" },
      if: { field: "[concat('tags[', parameters('tagName'), ']')]", equals: "prod" },
      applies: true,
    },
  ]);
});

describe("conditions", () => {
  // Azure Policy "policy rule" docs, Conditions: string comparisons are case-insensitive except
  // match/notMatch; like takes *; match takes # (digit), ? (letter), . (any character).
  check([
    { rule: "equals is case-insensitive", if: { field: "location", equals: "WestEurope" }, applies: true },
    { rule: "notEquals", if: { field: "location", notEquals: "westeurope" }, applies: false },
    { rule: "like", if: { field: "name", like: "st*" }, applies: true },
    { rule: "like is case-insensitive", if: { field: "name", like: "ST*" }, applies: true },
    { rule: "notLike", if: { field: "name", notLike: "st*" }, applies: false },
    {
      rule: "match: # digit, ? letter, . any",
      resource: storageAccount({ name: "web01x" }),
      if: { field: "name", match: "???##." },
      applies: true,
    },
    {
      rule: "match is case-sensitive",
      resource: storageAccount({ name: "Web01" }),
      if: { field: "name", match: "web##" },
      applies: false,
    },
    {
      rule: "matchInsensitively",
      resource: storageAccount({ name: "Web01" }),
      if: { field: "name", matchInsensitively: "web##" },
      applies: true,
    },
    {
      rule: "notMatch",
      resource: storageAccount({ name: "Web01" }),
      if: { field: "name", notMatch: "web##" },
      applies: true,
    },
    {
      rule: "notMatchInsensitively",
      resource: storageAccount({ name: "Web01" }),
      if: { field: "name", notMatchInsensitively: "web##" },
      applies: false,
    },
    {
      rule: "contains on a string is a case-insensitive substring",
      if: { field: "id", contains: "RESOURCEGROUPS/RG-APP" },
      applies: true,
    },
    { rule: "notContains", if: { field: "kind", notContains: "storage" }, applies: false },
    { rule: "in", if: { field: "location", in: ["eastus", "WESTEUROPE"] }, applies: true },
    {
      rule: "notIn with a parameter",
      parameters: { allowed: ["eastus"] },
      if: { field: "location", notIn: "[parameters('allowed')]" },
      applies: true,
    },
    { rule: "containsKey", if: { field: "tags", containsKey: "COST.CENTER" }, applies: true },
    { rule: "notContainsKey", if: { field: "tags", notContainsKey: "owner" }, applies: true },
    {
      rule: "less on strings",
      if: { field: `${STORAGE}/minimumTlsVersion`, less: "TLS1_2" },
      applies: false,
    },
    {
      rule: "lessOrEquals on strings",
      if: { field: `${STORAGE}/minimumTlsVersion`, lessOrEquals: "tls1_2" },
      applies: true,
    },
    { rule: "greater on numbers", if: { value: 7, greater: 5 }, applies: true },
    {
      rule: "greaterOrEquals on dates",
      if: { value: "2026-03-01T00:00:00Z", greaterOrEquals: "2026-02-28" },
      applies: true,
    },
    {
      rule: "less on a missing property is false",
      resource: storageAccount({ properties: {} }),
      if: { field: `${STORAGE}/minimumTlsVersion`, less: "TLS1_2" },
      applies: false,
    },
    {
      rule: "less between a string and a number fails the evaluation (implicit deny)",
      if: { field: `${STORAGE}/minimumTlsVersion`, less: 5 },
      applies: true,
    },
    { rule: "exists: true", if: { field: `${STORAGE}/minimumTlsVersion`, exists: "true" }, applies: true },
    {
      rule: "exists: false on a missing property",
      resource: storageAccount({ properties: {} }),
      if: { field: `${STORAGE}/minimumTlsVersion`, exists: false },
      applies: true,
    },
    {
      rule: "exists: false on a present property",
      if: { field: `${STORAGE}/minimumTlsVersion`, exists: false },
      applies: false,
    },
    {
      rule: "notEquals on a missing property holds",
      resource: storageAccount({ properties: {} }),
      if: { field: `${STORAGE}/supportsHttpsTrafficOnly`, notEquals: true },
      applies: true,
    },
    {
      rule: "condition keys are case-insensitive",
      if: { field: "location", NotEquals: "eastus" },
      applies: true,
    },
  ]);
});

describe("logical operators", () => {
  // Azure Policy docs: allOf requires every condition, anyOf at least one, not inverts.
  check([
    {
      rule: "allOf all true",
      if: {
        allOf: [
          { field: "type", equals: STORAGE },
          { field: "location", equals: "westeurope" },
        ],
      },
      applies: true,
    },
    {
      rule: "allOf one false",
      if: {
        allOf: [
          { field: "type", equals: STORAGE },
          { field: "location", equals: "eastus" },
        ],
      },
      applies: false,
    },
    {
      rule: "anyOf one true",
      if: {
        anyOf: [
          { field: "location", equals: "eastus" },
          { field: "kind", equals: "StorageV2" },
        ],
      },
      applies: true,
    },
    {
      rule: "anyOf none true",
      if: {
        anyOf: [
          { field: "location", equals: "eastus" },
          { field: "kind", equals: "FileStorage" },
        ],
      },
      applies: false,
    },
    { rule: "not", if: { not: { field: "tags", containsKey: "owner" } }, applies: true },
    {
      rule: "nested not inside allOf",
      if: { allOf: [{ not: { field: "location", in: ["westeurope"] } }, { field: "type", equals: STORAGE }] },
      applies: false,
    },
  ]);
});

describe("[*] aliases and count", () => {
  // Azure "Author policies for array properties": a condition on a [*] alias is true only if it is
  // true for every array member (so vacuously true for an empty array); field count counts the
  // members that satisfy `where`, in which [*] aliases refer to the current member; value count
  // iterates a literal or parameter array and current('name') gives the member.
  const ipRules = `${STORAGE}/networkAcls.ipRules[*]`;
  const noRules = storageAccount({ properties: { networkAcls: { defaultAction: "Deny", ipRules: [] } } });
  check([
    {
      rule: "[*] condition true for every member",
      if: { field: `${ipRules}.action`, equals: "Allow" },
      applies: true,
    },
    {
      rule: "[*] condition false for one member",
      if: { field: `${ipRules}.value`, notEquals: "198.51.100.7" },
      applies: false,
    },
    {
      rule: "[*] condition on an empty array is true",
      resource: noRules,
      if: { field: `${ipRules}.value`, equals: "0.0.0.0/0" },
      applies: true,
    },
    {
      rule: "[*] exists: false on an empty array is true",
      resource: noRules,
      if: { field: `${ipRules}.value`, exists: false },
      applies: true,
    },
    {
      rule: "array alias without [*] is the whole array",
      if: { field: `${STORAGE}/networkAcls.ipRules`, exists: true },
      applies: true,
    },
    { rule: "count of all members", if: { count: { field: ipRules }, equals: 2 }, applies: true },
    {
      rule: "count with where",
      if: { count: { field: ipRules, where: { field: `${ipRules}.value`, like: "203.*" } }, equals: 1 },
      applies: true,
    },
    {
      rule: "count with where matching none",
      if: {
        count: { field: ipRules, where: { field: `${ipRules}.value`, equals: "0.0.0.0/0" } },
        greater: 0,
      },
      applies: false,
    },
    {
      rule: "count of a missing array is 0",
      resource: storageAccount({ properties: {} }),
      if: { count: { field: ipRules }, equals: 0 },
      applies: true,
    },
    {
      rule: "public IP count on a NIC with a public IP",
      resource: networkInterface([undefined, "/subscriptions/x/publicIPAddresses/pip1"]),
      if: {
        count: {
          field: "Microsoft.Network/networkInterfaces/ipconfigurations[*]",
          where: {
            field: "Microsoft.Network/networkInterfaces/ipconfigurations[*].publicIpAddress.id",
            exists: true,
          },
        },
        equals: 1,
      },
      applies: true,
    },
    {
      rule: "not over a [*] notLike: some member has a value",
      resource: networkInterface([undefined, "/subscriptions/x/publicIPAddresses/pip1"]),
      if: {
        not: {
          field: "Microsoft.Network/networkInterfaces/ipconfigurations[*].publicIpAddress.id",
          notLike: "*",
        },
      },
      applies: true,
    },
    {
      rule: "not over a [*] notLike: no member has a value",
      resource: networkInterface([undefined, undefined]),
      if: {
        not: {
          field: "Microsoft.Network/networkInterfaces/ipconfigurations[*].publicIpAddress.id",
          notLike: "*",
        },
      },
      applies: false,
    },
    {
      rule: "public IP count on a private NIC",
      resource: networkInterface([undefined, undefined]),
      if: {
        count: {
          field: "Microsoft.Network/networkInterfaces/ipconfigurations[*]",
          where: {
            field: "Microsoft.Network/networkInterfaces/ipconfigurations[*].publicIpAddress.id",
            exists: true,
          },
        },
        greater: 0,
      },
      applies: false,
    },
    {
      rule: "current() of the counted member",
      if: {
        count: { field: ipRules, where: { value: `[current('${ipRules}.value')]`, equals: "198.51.100.7" } },
        equals: 1,
      },
      applies: true,
    },
    {
      rule: "field() of the counted alias is a one-member array",
      if: {
        count: {
          field: ipRules,
          where: { field: `${ipRules}.value`, equals: `[field('${ipRules}.value')]` },
        },
        equals: 0,
      },
      applies: true,
    },
    {
      rule: "first(field()) of the counted alias is the member's value",
      if: {
        count: {
          field: ipRules,
          where: { field: `${ipRules}.value`, equals: `[first(field('${ipRules}.value'))]` },
        },
        equals: 2,
      },
      applies: true,
    },
    {
      rule: "field() of a missing [*] alias is an empty array",
      resource: storageAccount({ properties: {} }),
      if: { value: `[length(field('${ipRules}.value'))]`, equals: 0 },
      applies: true,
    },
    {
      rule: "field() of a missing property is an empty string",
      resource: storageAccount({ properties: {} }),
      if: { value: `[field('${STORAGE}/minimumTlsVersion')]`, equals: "" },
      applies: true,
    },
    {
      rule: "where may refer to fields outside the array",
      if: { count: { field: ipRules, where: { field: "tags.Environment", equals: "prod" } }, equals: 2 },
      applies: true,
    },
    {
      rule: "value count with name and current()",
      parameters: { blocked: ["10.*", "198.51.*"] },
      if: {
        count: {
          value: "[parameters('blocked')]",
          name: "pattern",
          where: { field: "name", like: "[current('pattern')]" },
        },
        greater: 0,
      },
      applies: false,
    },
    {
      rule: "value count over a literal array",
      if: {
        count: {
          value: ["westeurope", "northeurope"],
          name: "loc",
          where: { field: "location", equals: "[current('loc')]" },
        },
        equals: 1,
      },
      applies: true,
    },
    {
      rule: "nested count inside where refers to the outer member",
      resource: {
        id: `${SUBSCRIPTION}/resourceGroups/rg/providers/Microsoft.Network/networkSecurityGroups/nsg1`,
        type: "Microsoft.Network/networkSecurityGroups",
        name: "nsg1",
        properties: {
          securityRules: [
            { name: "web", properties: { direction: "Inbound", destinationPortRanges: ["80", "443"] } },
            { name: "ssh", properties: { direction: "Inbound", destinationPortRanges: ["22"] } },
            { name: "out", properties: { direction: "Outbound", destinationPortRanges: ["22"] } },
          ],
        },
      },
      if: {
        count: {
          field: "Microsoft.Network/networkSecurityGroups/securityRules[*]",
          where: {
            allOf: [
              {
                field: "Microsoft.Network/networkSecurityGroups/securityRules[*].direction",
                equals: "Inbound",
              },
              {
                count: {
                  field: "Microsoft.Network/networkSecurityGroups/securityRules[*].destinationPortRanges[*]",
                  where: {
                    field:
                      "Microsoft.Network/networkSecurityGroups/securityRules[*].destinationPortRanges[*]",
                    in: ["22", "3389"],
                  },
                },
                greater: 0,
              },
            ],
          },
        },
        equals: 1,
      },
      applies: true,
    },
  ]);
});

describe("template expressions", () => {
  // Azure Policy "policy functions": parameters, concat, field, toLower/toUpper, if, equals, empty,
  // contains, length, split, first, last, replace, current; a leading "[[" escapes a literal "[".
  check([
    {
      rule: "parameters",
      parameters: { location: "westeurope" },
      if: { field: "location", equals: "[parameters('location')]" },
      applies: true,
    },
    {
      rule: "parameter names are case-insensitive",
      parameters: { Location: "westeurope" },
      if: { field: "location", equals: "[parameters('LOCATION')]" },
      applies: true,
    },
    {
      rule: "concat",
      if: {
        field: "id",
        equals: `[concat('${SUBSCRIPTION}', '/resourceGroups/rg-app/providers/', field('type'), '/', field('name'))]`,
      },
      applies: true,
    },
    {
      rule: "toLower / toUpper",
      if: { value: "[toUpper(toLower(field('kind')))]", equals: "STORAGEV2" },
      applies: true,
    },
    {
      rule: "if / equals",
      if: { value: "[if(equals(field('location'), 'westeurope'), 'eu', 'other')]", equals: "eu" },
      applies: true,
    },
    { rule: "empty", if: { value: "[empty(field('tags'))]", equals: false }, applies: true },
    {
      rule: "contains (function)",
      if: { value: "[contains(field('tags'), 'Environment')]", equals: true },
      applies: true,
    },
    { rule: "length / split", if: { value: "[length(split(field('id'), '/'))]", equals: 9 }, applies: true },
    {
      rule: "first / last",
      resource: storageAccount({ name: "app-web-prod" }),
      if: {
        allOf: [
          { value: "[first(split(field('name'), '-'))]", equals: "app" },
          { value: "[last(split(field('name'), '-'))]", equals: "prod" },
        ],
      },
      applies: true,
    },
    {
      rule: "replace",
      if: { value: "[replace(field('location'), 'europe', '-eu')]", equals: "west-eu" },
      applies: true,
    },
    {
      rule: "index into a split result",
      resource: storageAccount({ name: "app-web-prod" }),
      if: { value: "[split(field('name'), '-')[1]]", equals: "web" },
      applies: true,
    },
    {
      rule: "field() of a [*] alias is the array of values",
      if: { value: `[length(field('${STORAGE}/networkAcls.ipRules[*].value'))]`, equals: 2 },
      applies: true,
    },
    {
      rule: "[[ escapes a literal bracket",
      resource: storageAccount({ name: "[literal]" }),
      if: { field: "name", equals: "[[literal]" },
      applies: true,
    },
    {
      rule: "quotes inside string literals",
      resource: storageAccount({ name: "it's" }),
      if: { field: "name", equals: "[concat('it''', 's')]" },
      applies: true,
    },
  ]);
});

describe("result", () => {
  const rule = {
    if: {
      allOf: [
        { field: "type", equals: STORAGE },
        { field: `${STORAGE}/supportsHttpsTrafficOnly`, notEquals: true },
      ],
    },
    then: { effect: "[parameters('effect')]" },
  };

  it("resolves the effect through the parameters and names the condition that matched", () => {
    const insecure = storageAccount({ properties: { supportsHttpsTrafficOnly: false } });
    expect(evaluatePolicyRule(rule, insecure, { effect: "Deny" }, aliases)).toEqual({
      applies: true,
      effect: "Deny",
      failingCondition: { path: "if.allOf[1]", condition: rule.if.allOf[1] },
    });
    expect(evaluatePolicyRule(rule, storageAccount(), { effect: "Audit" }, aliases)).toEqual({
      applies: false,
      effect: "Audit",
    });
  });

  it("names the first anyOf member that held", () => {
    const anyRule = {
      if: {
        anyOf: [
          { field: "location", equals: "eastus" },
          { not: { field: "tags", containsKey: "Environment" } },
          { field: "kind", equals: "StorageV2" },
        ],
      },
      then: { effect: "audit" },
    };
    expect(evaluatePolicyRule(anyRule, storageAccount(), {}, aliases).failingCondition).toEqual({
      path: "if.anyOf[2]",
      condition: anyRule.if.anyOf[2],
    });
  });

  it("treats a failing template function as non-compliant, as Azure does", () => {
    // Azure Policy "value operator" pattern: a template function error fails the evaluation,
    // which is an implicit deny.
    const broken = { if: { value: "[first(parameters('missing'))]", equals: "x" }, then: { effect: "deny" } };
    const result = evaluatePolicyRule(broken, storageAccount(), {}, aliases);
    expect(result.applies).toBe(true);
    expect(result.failingCondition).toMatchObject({ path: "if", error: expect.stringContaining("missing") });
  });

  it("rejects a malformed rule", () => {
    expect(() =>
      evaluatePolicyRule({ if: { field: "name" }, then: { effect: "deny" } }, storageAccount(), {}, aliases),
    ).toThrow(/no condition/);
    expect(() =>
      evaluatePolicyRule({ if: { field: "name", equals: "x" } }, storageAccount(), {}, aliases),
    ).toThrow(/effect/);
  });
});

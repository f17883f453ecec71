import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { CloudProvider, Order } from "@palisade/api/gen/palisade/common/v1/common_pb";
import {
  ListOrderBy,
  PolicyDefinitionState,
} from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_pb";
import {
  type ListFilter,
  ListFilterSchema,
} from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_service_pb";
import type { Definition } from "@palisade/policy-engine/catalogue/definition-schema";
import { describe, expect, it } from "vitest";
import { matchesFilter, readFilter, searchText, sortDefinitions } from "./definition-query";
import { stateOfModes, type TenantDefinition } from "./tenant-catalogue";

/** Only the fields the query reads; the rest of a definition does not matter here. */
function entry(
  slug: string,
  fields: Partial<Definition> & { state?: PolicyDefinitionState; createdAt?: Date } = {},
): TenantDefinition {
  const { state = PolicyDefinitionState.NOT_INSTALLED, createdAt, ...definition } = fields;
  return {
    definition: {
      slug,
      display_name: slug,
      description: "",
      enforcer: "aws_scp",
      main_resource_type: "AWS::EC2::Instance",
      affected_resource_types: ["AWS::EC2::Instance"],
      initiative_slugs: [],
      frameworks: [],
      security_score: "medium",
      seamless_score: "medium",
      ...definition,
    } as Definition,
    own: createdAt !== undefined,
    createdAt,
    state,
  };
}

const entries = [
  entry("imds", { display_name: "Require IMDSv2", security_score: "high", seamless_score: "low" }),
  entry("locations", {
    display_name: "allowed locations",
    enforcer: "azure_policy",
    main_resource_type: "Microsoft.Resources/resourceGroups",
    affected_resource_types: ["Microsoft.Resources/resourceGroups", "Microsoft.Compute/virtualMachines"],
    initiative_slugs: ["cis-azure"],
    frameworks: [{ name: "cis-azure", section: "1.1" }],
    security_score: "low",
    state: PolicyDefinitionState.ALERT,
  }),
  entry("leave-org", {
    display_name: "Deny leaving the organization",
    description: "Stops accounts from LEAVING.",
    main_resource_type: "AWS::Organizations::Account",
    security_score: "very_high",
    seamless_score: "very_high",
    initiative_slugs: ["cis-aws"],
    frameworks: [{ name: "cis-aws", section: "1.7" }],
    state: PolicyDefinitionState.PREVENT,
    createdAt: new Date("2026-01-02T00:00:00Z"),
  }),
  entry("custom", { display_name: "Custom guardrail", createdAt: new Date("2026-03-01T00:00:00Z") }),
];

const f = (init: MessageInitShape<typeof ListFilterSchema>) => create(ListFilterSchema, init);
const slugs = (list: readonly TenantDefinition[]) => list.map((e) => e.definition.slug);

describe("matchesFilter", () => {
  it.each<[string, ListFilter | undefined, string[]]>([
    ["nothing", undefined, ["imds", "locations", "leave-org", "custom"]],
    ["AWS", f({ cloudProviders: [CloudProvider.AWS] }), ["imds", "leave-org", "custom"]],
    ["Azure", f({ cloudProviders: [CloudProvider.AZURE] }), ["locations"]],
    [
      "states",
      f({ states: [PolicyDefinitionState.ALERT, PolicyDefinitionState.PREVENT] }),
      ["locations", "leave-org"],
    ],
    ["an initiative", f({ initiativeSlugs: ["cis-aws"] }), ["leave-org"]],
    ["a framework", f({ frameworks: ["cis-azure"] }), ["locations"]],
    ["an affected type", f({ affectedResourceTypes: ["Microsoft.Compute/virtualMachines"] }), ["locations"]],
    ["a main type", f({ mainResourceTypes: ["AWS::EC2::Instance"] }), ["imds", "custom"]],
    ["slugs", f({ slugs: ["custom", "imds"] }), ["imds", "custom"]],
    ["a search in the display name", f({ search: "imdsv" }), ["imds"]],
    ["a search in the description", f({ search: " leaving " }), ["leave-org"]],
    ["a search in the slug", f({ search: "ORG" }), ["leave-org"]],
    ["a one-character search", f({ search: "z" }), ["imds", "locations", "leave-org", "custom"]],
    ["two filters at once", f({ cloudProviders: [CloudProvider.AWS], search: "custom" }), ["custom"]],
  ])("filters by %s", (_name, filter, expected) => {
    const parsed = readFilter(filter);
    expect(slugs(entries.filter((e) => matchesFilter(e, parsed)))).toEqual(expected);
  });

  it.each<[string, ListFilter | undefined, RegExp]>([
    [
      "an unspecified provider",
      f({ cloudProviders: [CloudProvider.UNSPECIFIED] }),
      /filter\.cloud_providers/,
    ],
    ["an unspecified state", f({ states: [PolicyDefinitionState.UNSPECIFIED] }), /filter\.states/],
  ])("refuses %s", (_name, filter, message) => {
    expect(() => readFilter(filter)).toThrow(message);
  });
});

describe("searchText", () => {
  it.each([
    [undefined, undefined],
    ["a", undefined],
    ["  a  ", undefined],
    ["Ab", "ab"],
    ["  Deny S3  ", "deny s3"],
  ])("reads %j as %j", (input, expected) => {
    expect(searchText(input)).toBe(expected);
  });
});

describe("sortDefinitions", () => {
  it.each<[string, ListOrderBy[], Order, string[]]>([
    ["name by default, A to Z", [], Order.UNSPECIFIED, ["locations", "custom", "leave-org", "imds"]],
    ["name, Z to A", [ListOrderBy.NAME], Order.DESCENDING, ["imds", "leave-org", "custom", "locations"]],
    [
      "security score, highest first",
      [ListOrderBy.SECURITY_SCORE],
      Order.UNSPECIFIED,
      ["leave-org", "imds", "custom", "locations"],
    ],
    [
      "security score, lowest first",
      [ListOrderBy.SECURITY_SCORE],
      Order.ASCENDING,
      ["locations", "custom", "imds", "leave-org"],
    ],
    [
      "seamless score, then name",
      [ListOrderBy.SEAMLESS_SCORE, ListOrderBy.NAME],
      Order.UNSPECIFIED,
      ["leave-org", "locations", "custom", "imds"],
    ],
    [
      "creation, newest first; catalogue definitions last, by slug",
      [ListOrderBy.CREATED_AT],
      Order.UNSPECIFIED,
      ["custom", "leave-org", "imds", "locations"],
    ],
  ])("orders by %s", (_name, orderBy, order, expected) => {
    expect(slugs(sortDefinitions(entries, orderBy, order))).toEqual(expected);
  });

  it("refuses an order it does not know", () => {
    expect(() => sortDefinitions(entries, [99 as ListOrderBy], Order.UNSPECIFIED)).toThrow(/order_by/);
  });
});

describe("stateOfModes", () => {
  it.each([
    [[], PolicyDefinitionState.NOT_INSTALLED],
    [["ALERT"], PolicyDefinitionState.ALERT],
    [["ALERT", "PREVENT"], PolicyDefinitionState.PREVENT],
    [["PREVENT"], PolicyDefinitionState.PREVENT],
  ])("%j -> %s", (modes, state) => {
    expect(stateOfModes(modes)).toBe(state);
  });
});

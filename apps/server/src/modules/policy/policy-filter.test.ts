import { create } from "@bufbuild/protobuf";
import { CloudProvider } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { GetPoliciesFilterSchema } from "@palisade/api/gen/palisade/policy/v1/policy_pb";
import {
  Category,
  PolicyDefinitionState,
} from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_pb";
import type { Definition } from "@palisade/policy-engine/catalogue/definition-schema";
import { describe, expect, it } from "vitest";
import type { TenantDefinition } from "../policy-definition/tenant-catalogue";
import { policyMatcher } from "./policy-filter";

function entry(
  slug: string,
  fields: Partial<Definition>,
  state = PolicyDefinitionState.NOT_INSTALLED,
): TenantDefinition {
  const definition = {
    slug,
    display_name: slug.replace(/-/g, " "),
    enforcer: "aws_scp",
    category: "other",
    initiative_slugs: [],
    frameworks: [],
    affected_resource_types: [],
    ...fields,
  } as unknown as Definition;
  return { definition, own: false, createdAt: undefined, state };
}

const entries = [
  entry(
    "deny-s3-public-acls",
    {
      category: "data_protection",
      affected_resource_types: ["AWS::S3::Bucket"],
      frameworks: [{ name: "cis-aws-foundations-3.0.0", section: "2.1.4" }],
      initiative_slugs: ["cis-aws"],
    },
    PolicyDefinitionState.PREVENT,
  ),
  entry("storage-accounts-https-only", {
    enforcer: "azure_policy",
    display_name: "Storage accounts must require HTTPS",
    category: "encryption",
  }),
  entry("deny-root-user-actions", { category: "identity" }, PolicyDefinitionState.ALERT),
];

const slugsMatching = (filter: Parameters<typeof create<typeof GetPoliciesFilterSchema>>[1]) => {
  const matches = policyMatcher(create(GetPoliciesFilterSchema, filter));
  return entries.filter(matches).map((e) => e.definition.slug);
};

describe("policyMatcher", () => {
  it.each([
    [{}, ["deny-s3-public-acls", "storage-accounts-https-only", "deny-root-user-actions"]],
    [{ search: "HTTPS" }, ["storage-accounts-https-only"]],
    [{ search: "s" }, ["deny-s3-public-acls", "storage-accounts-https-only", "deny-root-user-actions"]],
    [
      { states: [PolicyDefinitionState.PREVENT, PolicyDefinitionState.ALERT] },
      ["deny-s3-public-acls", "deny-root-user-actions"],
    ],
    [{ cloudProviders: [CloudProvider.AZURE] }, ["storage-accounts-https-only"]],
    [
      { categories: [Category.IDENTITY, Category.ENCRYPTION] },
      ["storage-accounts-https-only", "deny-root-user-actions"],
    ],
    [{ initiativeSlugs: ["cis-aws"] }, ["deny-s3-public-acls"]],
    [{ frameworks: ["cis-aws-foundations-3.0.0"] }, ["deny-s3-public-acls"]],
    [{ affectedResourceTypes: ["AWS::S3::Bucket"] }, ["deny-s3-public-acls"]],
    [{ slugs: ["deny-root-user-actions"], states: [PolicyDefinitionState.PREVENT] }, []],
  ])("%j -> %j", (filter, expected) => {
    expect(slugsMatching(filter)).toEqual(expected);
  });

  it("refuses an unspecified state or provider", () => {
    expect(() =>
      policyMatcher(create(GetPoliciesFilterSchema, { states: [PolicyDefinitionState.UNSPECIFIED] })),
    ).toThrow(/filter.states/);
    expect(() =>
      policyMatcher(create(GetPoliciesFilterSchema, { cloudProviders: [CloudProvider.UNSPECIFIED] })),
    ).toThrow(/filter.cloud_providers/);
  });
});

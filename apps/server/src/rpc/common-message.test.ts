import { CloudProvider, ScopeType } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { describe, expect, it } from "vitest";
import { cloudProviderOf, scopeTypeOf } from "./common-message";

describe("common message enums", () => {
  it.each([
    ["aws", CloudProvider.AWS],
    ["AZURE", CloudProvider.AZURE],
    ["gcp", CloudProvider.UNSPECIFIED],
  ])("provider %s", (name, expected) => {
    expect(cloudProviderOf(name)).toBe(expected);
  });

  it.each([
    ["AWS_OU", ScopeType.AWS_OU],
    ["AZURE_RESOURCE_GROUP", ScopeType.AZURE_RESOURCE_GROUP],
    ["toString", ScopeType.UNSPECIFIED],
    ["", ScopeType.UNSPECIFIED],
  ])("scope type %s", (name, expected) => {
    expect(scopeTypeOf(name)).toBe(expected);
  });
});

import { CloudProvider } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { PolicyDefinitionState } from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_pb";
import { describe, expect, it } from "vitest";
import { catalogueRequest, searchTerm, totalPagesOf, withFilter } from "./catalogue-filters";

describe("searchTerm", () => {
  it.each([
    [undefined, undefined],
    ["", undefined],
    ["s", undefined],
    ["  s  ", undefined],
    ["s3", "s3"],
    ["  public bucket ", "public bucket"],
  ])("%j -> %j", (input, expected) => {
    expect(searchTerm(input)).toBe(expected);
  });
});

describe("catalogueRequest", () => {
  it("sends no filter when the address has none, on the first page", () => {
    const request = catalogueRequest({});
    expect(request.pagination.position).toEqual({ case: "page", value: 1 });
    expect(request.filter).toEqual({
      search: undefined,
      cloudProviders: [],
      states: [],
      frameworks: [],
      affectedResourceTypes: [],
    });
  });

  it("maps every filter of the address", () => {
    const request = catalogueRequest({
      search: "bucket",
      provider: "Azure",
      state: "not-installed",
      framework: "CIS AWS",
      resourceType: "AWS::S3::Bucket",
      page: 4,
    });
    expect(request.pagination.position).toEqual({ case: "page", value: 4 });
    expect(request.filter).toEqual({
      search: "bucket",
      cloudProviders: [CloudProvider.AZURE],
      states: [PolicyDefinitionState.NOT_INSTALLED],
      frameworks: ["CIS AWS"],
      affectedResourceTypes: ["AWS::S3::Bucket"],
    });
  });
});

describe("catalogueRequest with a category", () => {
  it("asks for the whole catalogue on one page, whatever page the address names", () => {
    const request = catalogueRequest({ category: "identity", page: 3 });
    expect(request.pagination).toEqual({ position: { case: "page", value: 1 }, limit: 200 });
  });
});

describe("withFilter", () => {
  it.each([
    [{ page: 3, provider: "AWS" as const }, "provider", "Azure", { provider: "Azure" }],
    [{ page: 3, provider: "AWS" as const }, "provider", "", { provider: undefined }],
    [{ page: 3 }, "page", 4, { page: 4 }],
    [{ view: "deployed" as const, page: 2 }, "view", "catalogue", { view: undefined }],
  ] as const)("%j + %s=%j", (search, key, value, expected) => {
    const next = withFilter(search, key, value as never);
    for (const [k, v] of Object.entries(expected)) expect(next[k as keyof typeof next]).toEqual(v);
    if (key !== "page") expect(next.page).toBeUndefined();
  });
});

describe("totalPagesOf", () => {
  it.each([
    [undefined, 1],
    [{ position: { case: "totalPages", value: 0 } }, 1],
    [{ position: { case: "totalPages", value: 7 } }, 7],
    [{ position: { case: "cursor", value: {} } }, 1],
  ])("%j -> %d", (pagination, expected) => {
    expect(totalPagesOf(pagination as never)).toBe(expected);
  });
});

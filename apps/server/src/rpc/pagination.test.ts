import { create } from "@bufbuild/protobuf";
import { Order, PaginationRequestSchema } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { describe, expect, it } from "vitest";
import { pageResponse, pageWindow } from "./pagination";

describe("pageWindow", () => {
  it.each([
    ["no pagination", undefined, { page: 1, limit: 30, offset: 0, descending: true }],
    [
      "page 3 of 10",
      { position: { case: "page" as const, value: 3 }, limit: 10 },
      { page: 3, limit: 10, offset: 20, descending: true },
    ],
    [
      "page 0 is page 1",
      { position: { case: "page" as const, value: 0 } },
      { page: 1, limit: 30, offset: 0, descending: true },
    ],
    ["ascending", { order: Order.ASCENDING }, { page: 1, limit: 30, offset: 0, descending: false }],
  ])("%s", (_name, input, expected) => {
    expect(pageWindow(input ? create(PaginationRequestSchema, input) : undefined)).toEqual(expected);
  });
});

describe("pageResponse", () => {
  it("counts pages, rounding up", () => {
    const response = pageResponse(61, pageWindow(undefined));
    expect(response.position).toEqual({ case: "totalPages", value: 3 });
    expect(response.totalItems).toBe(61);
  });
});

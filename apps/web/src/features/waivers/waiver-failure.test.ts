import { create, toBinary } from "@bufbuild/protobuf";
import { ErrorDetailSchema, ProductErrorCode } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { describe, expect, it } from "vitest";
import { RpcError } from "@/lib/rpc-error";
import { waiverFailureOf } from "./waiver-failure";

const limitExceeded = [
  {
    type: "palisade.common.v1.ErrorDetail",
    value: toBinary(
      ErrorDetailSchema,
      create(ErrorDetailSchema, { code: ProductErrorCode.WAIVER_LIMIT_EXCEEDED }),
    ),
  },
];

describe("waiverFailureOf", () => {
  it.each([
    ["a signed-out visitor", new RpcError("unauthenticated", "Sign in"), { kind: "sign-in" }],
    [
      "a denied permission",
      new RpcError("permission_denied", "You are not a member of any tenant."),
      { kind: "permission-denied", message: "You are not a member of any tenant." },
    ],
    [
      "an unknown key",
      new RpcError("not_found", "No policy has this key"),
      { kind: "invalid-key", productCode: ProductErrorCode.UNSPECIFIED },
    ],
    [
      "too many open waivers",
      new RpcError("failed_precondition", "Policy ABCDEFG already has 5 waivers", limitExceeded),
      {
        kind: "product",
        productCode: ProductErrorCode.WAIVER_LIMIT_EXCEEDED,
        text: expect.objectContaining({ title: "Too Many Open Waivers" }),
      },
    ],
    ["a network failure", new TypeError("Failed to fetch"), { kind: "invalid-key", productCode: 0 }],
  ])("%s", (_name, error, expected) => {
    expect(waiverFailureOf(error)).toEqual(expected);
  });
});

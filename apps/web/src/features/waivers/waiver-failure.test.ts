import { create, toBinary } from "@bufbuild/protobuf";
import { ErrorDetailSchema, ProductErrorCode } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { describe, expect, it } from "vitest";
import { RpcError } from "@/lib/rpc-error";
import { waiverFailureOf } from "./waiver-failure";

const detailsOf = (code: ProductErrorCode) => [
  {
    type: "palisade.common.v1.ErrorDetail",
    value: toBinary(ErrorDetailSchema, create(ErrorDetailSchema, { code })),
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
      new RpcError(
        "failed_precondition",
        "Policy ABCDEFG already has 5 waivers",
        detailsOf(ProductErrorCode.WAIVER_LIMIT_EXCEEDED),
      ),
      {
        kind: "product",
        productCode: ProductErrorCode.WAIVER_LIMIT_EXCEEDED,
        text: expect.objectContaining({ title: "Too Many Open Waivers" }),
      },
    ],
    [
      "a scope the policy is not deployed to",
      new RpcError(
        "invalid_argument",
        "Subscription 1234 is not within any scope policy ABCDEFG is deployed to.",
        detailsOf(ProductErrorCode.WAIVER_CREATION_FAILED_FORBIDDEN_SCOPE),
      ),
      {
        kind: "product",
        productCode: ProductErrorCode.WAIVER_CREATION_FAILED_FORBIDDEN_SCOPE,
        text: expect.objectContaining({ title: "Scope Not Allowed" }),
      },
    ],
    [
      "a scope that is not a cloud id",
      new RpcError(
        "invalid_argument",
        'scope_external_id "corp-prod" is not a scope',
        detailsOf(ProductErrorCode.PARSE_WAIVER_SCOPE_FAILED),
      ),
      {
        kind: "product",
        productCode: ProductErrorCode.PARSE_WAIVER_SCOPE_FAILED,
        text: expect.objectContaining({ title: "Waiver Scope Not Understood" }),
      },
    ],
    ["a network failure", new TypeError("Failed to fetch"), { kind: "invalid-key", productCode: 0 }],
  ])("%s", (_name, error, expected) => {
    expect(waiverFailureOf(error)).toEqual(expected);
  });
});

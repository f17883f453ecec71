import { create, toBinary } from "@bufbuild/protobuf";
import { ErrorDetailSchema, ProductErrorCode } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { describe, expect, it } from "vitest";
import { productErrorText, productErrorTextOf } from "./product-error-text";
import { RpcError } from "./rpc-error";

const codes = Object.values(ProductErrorCode).filter(
  (value): value is ProductErrorCode => typeof value === "number" && value !== ProductErrorCode.UNSPECIFIED,
);

describe("productErrorText", () => {
  it("has a sentence for each of the 15 product error codes", () => {
    expect(codes).toHaveLength(15);
    for (const code of codes) {
      const text = productErrorText(code);
      expect(text?.title, ProductErrorCode[code]).toBeTruthy();
      // What happened, then what to do: at least two sentences.
      expect(text?.message.split(". ").length, ProductErrorCode[code]).toBeGreaterThanOrEqual(2);
    }
    expect(new Set(codes.map((c) => productErrorText(c)?.title)).size).toBe(15);
  });

  it("has none for UNSPECIFIED or an unknown code", () => {
    expect(productErrorText(ProductErrorCode.UNSPECIFIED)).toBeUndefined();
    expect(productErrorText(99 as ProductErrorCode)).toBeUndefined();
  });

  it("reads the code from an RPC failure", () => {
    const error = new RpcError("failed_precondition", "Policy ABCDEFG already has 5 waivers", [
      {
        type: "palisade.common.v1.ErrorDetail",
        value: toBinary(
          ErrorDetailSchema,
          create(ErrorDetailSchema, { code: ProductErrorCode.WAIVER_LIMIT_EXCEEDED }),
        ),
      },
    ]);
    expect(productErrorTextOf(error)?.title).toBe("Too Many Open Waivers");
    expect(productErrorTextOf(new RpcError("not_found", "No key"))).toBeUndefined();
  });
});

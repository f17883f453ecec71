import { ProductErrorCode } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { describe, expect, it } from "vitest";
import { errorCodeText } from "./bundle-status";

describe("errorCodeText", () => {
  it("explains a known code with the sentence the waiver page uses", () => {
    expect(errorCodeText(ProductErrorCode.EXEMPTIONS_LIMIT_EXCEEDED)).toEqual({
      title: "Exemption Limit Reached",
      message:
        "The cloud allows no more exemptions in this scope. Cancel waivers you no longer need, then try again.",
    });
  });

  it.each([
    [ProductErrorCode.UNSPECIFIED, "Unspecified"],
    [999 as ProductErrorCode, "Unspecified"],
  ])("names a code without text by its name: %d -> %s", (code, title) => {
    expect(errorCodeText(code)).toEqual({ title, message: "" });
  });
});

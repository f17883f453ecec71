import { ProductErrorCode } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { describe, expect, it } from "vitest";
import { errorCodeLabel } from "./bundle-status";

describe("errorCodeLabel", () => {
  it.each([
    [ProductErrorCode.DEPLOYMENT_SYNC_FAILED, "Deployment sync failed"],
    [ProductErrorCode.CLOUD_INVALID_SCOPE, "Cloud invalid scope"],
    [ProductErrorCode.UNSPECIFIED, "Unspecified"],
    [999 as ProductErrorCode, "Unspecified"],
  ])("%d -> %s", (code, expected) => {
    expect(errorCodeLabel(code)).toBe(expected);
  });
});

import { ProductErrorCode } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ProductErrors } from "./product-errors";

const text = (codes: ProductErrorCode[]) =>
  renderToStaticMarkup(<ProductErrors codes={codes} label="Bundle errors" />).replace(/<[^>]+>/g, "");

describe("ProductErrors", () => {
  it("shows each stored code as its title and what to do, not its name", () => {
    const shown = text([
      ProductErrorCode.EXEMPTIONS_LIMIT_EXCEEDED,
      ProductErrorCode.CLOUD_SUBSCRIPTION_DISABLED,
    ]);
    expect(shown).toContain(
      "Exemption Limit Reached — The cloud allows no more exemptions in this scope. Cancel waivers you no longer need, then try again.",
    );
    expect(shown).toContain(
      "Cloud Subscription Disabled — The cloud subscription or account is disabled. Enable it in the cloud provider, then try again.",
    );
    expect(shown).not.toMatch(/EXEMPTIONS_LIMIT_EXCEEDED|Exemptions limit exceeded/);
  });

  it("shows nothing when there is no error", () => {
    expect(renderToStaticMarkup(<ProductErrors codes={[]} label="Bundle errors" />)).toBe("");
  });
});

import { describe, expect, it } from "vitest";
import { addRecommendationSchema } from "./add-recommendation-schema";

const valid = {
  title: "Block public S3 buckets",
  description: "Stops buckets from being made public.",
  provider: "AWS",
  policySlugs: "deny-public-s3, require-imdsv2",
};

describe("add recommendation form", () => {
  it("splits policy slugs on commas and spaces", () => {
    expect(
      addRecommendationSchema.parse({ ...valid, policySlugs: " deny-public-s3,require-imdsv2  other " })
        .policySlugs,
    ).toEqual(["deny-public-s3", "require-imdsv2", "other"]);
  });

  it.each([
    [{ title: "  " }, "Title is required"],
    [{ description: "" }, "Description is required"],
    [{ provider: "GCP" }, "Choose a cloud"],
    [{ policySlugs: " , " }, "Name at least one policy definition"],
    [{ policySlugs: "Deny_Public" }, "Policy slugs use lower-case letters, digits and dashes"],
    [{ title: "x".repeat(121) }, "Title must not exceed 120 characters"],
  ])("%j fails with %s", (change, message) => {
    const result = addRecommendationSchema.safeParse({ ...valid, ...change });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(message);
  });
});

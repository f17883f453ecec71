import { describe, expect, it } from "vitest";
import { bundle, catalogue, KEY, NOW } from "../../../test/bundles";
import type { AwsDefinition } from "../../catalogue/definition-schema";
import { type ActiveWaiver, PolicyLimitExceededError } from "../compile-input";
import { compileScp, SCP_MAX_CHARACTERS } from "./compile-scp";

const awsDefinitions = catalogue.definitions.filter((d): d is AwsDefinition => d.enforcer === "aws_scp");

/** Waivers with distinct expiry times: each one adds a time window, repeating every statement. */
function waivers(count: number): ActiveWaiver[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `w-${i}`,
    key: KEY,
    expiresAt: new Date(NOW.getTime() + (i + 1) * 3_600_000),
    principalArn: `arn:aws:iam::111122223333:role/team-${i}-deploy`,
  }));
}

/** Characters of the compiled SCP, or Infinity when it no longer fits. */
function sizeWith(definition: AwsDefinition, count: number): number {
  try {
    return compileScp(bundle({ definition, waivers: waivers(count) })).content.length;
  } catch (error) {
    if (error instanceof PolicyLimitExceededError) return Number.POSITIVE_INFINITY;
    throw error;
  }
}

describe("SCP size limit", () => {
  it.each(awsDefinitions.map((d) => [d.slug, d] as const))(
    "%s fits the limit with default parameters",
    (_slug, definition) => {
      expect(sizeWith(definition, 0)).toBeLessThanOrEqual(SCP_MAX_CHARACTERS);
    },
  );

  it("fails the largest definition, once packed with waivers, with how far it is over", () => {
    const largest = awsDefinitions.reduce((a, b) => (sizeWith(a, 0) >= sizeWith(b, 0) ? a : b));
    let count = 0;
    while (count < 50 && sizeWith(largest, count + 1) <= SCP_MAX_CHARACTERS) count++;
    expect(count).toBeLessThan(50);

    let error: unknown;
    try {
      compileScp(bundle({ definition: largest, waivers: waivers(count + 1) }));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PolicyLimitExceededError);
    const limitError = error as PolicyLimitExceededError;
    expect(limitError.code).toBe("POLICY_LIMIT_EXCEEDED");
    expect(limitError.actual).toBeGreaterThan(SCP_MAX_CHARACTERS);
    expect(limitError.message).toContain(
      `The service control policy for ${KEY} (${largest.slug}) is ${limitError.actual} characters, ` +
        `${limitError.actual - SCP_MAX_CHARACTERS} over the ${SCP_MAX_CHARACTERS}-character limit of AWS Organizations.`,
    );
    expect(limitError.message).toContain(`${count + 1} active waivers`);
  });

  it("counts a long list parameter towards the limit", () => {
    const regions = catalogue.bySlug.get("deny-regions-outside-allowlist") as AwsDefinition;
    const many = Array.from({ length: 800 }, (_, i) => `xx-region-${i}`);
    expect(() => compileScp(bundle({ definition: regions, parameters: { allowed_regions: many } }))).toThrow(
      PolicyLimitExceededError,
    );
  });
});

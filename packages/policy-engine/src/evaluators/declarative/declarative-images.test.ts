import { describe, expect, it } from "vitest";
import { imageCriteria } from "./declarative-images";
import type { EffectiveDeclarative } from "./declarative-merge";
import { declarativeViolations } from "./declarative-request";

// Allowed AMIs (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ec2-allowed-amis.html): only
// `enabled` restricts, the launching account's own AMIs are always allowed, and a criterion is
// evaluated on its providers only (one stating anything else matches nothing: never kinder).

const settings = (state: string, criteria: Record<string, unknown>): EffectiveDeclarative =>
  new Map<string, unknown>([
    ["allowed_images_settings.state", state],
    ...Object.entries(criteria).map(
      ([k, v]) => [`allowed_images_settings.image_criteria.${k}`, v] as [string, unknown],
    ),
  ]);
const launch = (parameters: Record<string, string>, account?: string) => ({
  action: "ec2:RunInstances",
  parameters: { ImageId: "ami-0abcdef1234567890", ...parameters },
  account,
});

describe("Allowed AMIs in the declarative evaluator", () => {
  const amazonOnly = settings("enabled", { "criteria_1.allowed_image_providers": ["amazon"] });
  it("allows listed providers and the launching account's own images", () => {
    expect(declarativeViolations(amazonOnly, launch({ ImageProvider: "amazon" }))).toEqual([]);
    expect(
      declarativeViolations(amazonOnly, launch({ ImageProvider: "111122223333" }, "111122223333")),
    ).toEqual([]);
    expect(
      declarativeViolations(amazonOnly, launch({ ImageProvider: "111122223333" }, "444455556666")),
    ).toEqual([
      "image ami-0abcdef1234567890 (provider 111122223333) is not allowed by the Allowed AMIs settings",
    ]);
    expect(declarativeViolations(amazonOnly, launch({}, "111122223333"))).toHaveLength(1);
  });
  it("restricts nothing in audit mode or when disabled", () => {
    for (const state of ["audit_mode", "disabled"])
      expect(declarativeViolations(settings(state, {}), launch({}))).toEqual([]);
  });
  it("matches nothing with a criterion stating more than providers, and reads criteria in order", () => {
    const named = settings("enabled", {
      "criteria_2.allowed_image_providers": ["amazon"],
      "criteria_2.image_names": ["al2023-*"],
      "criteria_10.allowed_image_providers": "aws-marketplace",
    });
    expect(declarativeViolations(named, launch({ ImageProvider: "amazon" }))).toHaveLength(1);
    expect(declarativeViolations(named, launch({ ImageProvider: "aws-marketplace" }))).toEqual([]);
    expect(imageCriteria(named)).toEqual([
      { providers: ["amazon"], onlyProviders: false },
      { providers: ["aws-marketplace"], onlyProviders: true },
    ]);
  });
  it("matches actions without regard to case, as IAM does", () => {
    expect(
      declarativeViolations(amazonOnly, { action: "EC2:disableallowedimagessettings", parameters: {} }),
    ).toHaveLength(1);
  });
});

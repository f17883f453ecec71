import { describe, expect, it } from "vitest";
import { createSeedState } from "../state/seed";
import { declarativeRefusal, runInstancesRequest } from "./declarative-ec2";
import type { EffectiveDeclarative } from "./declarative-effective";
import { AMAZON_IMAGES } from "./ec2-allowed-images";

// Allowed AMIs as the sandbox evaluates them with the policy-engine's evaluator (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ec2-allowed-amis.html):
// only `enabled` restricts; the account's own AMIs are always allowed; an image whose provider the
// sandbox does not know, or a criterion it cannot evaluate, allows nothing (stricter, never kinder).

const aws = createSeedState(1).aws;
const account = aws.accounts[1]!.id;
const amazon = [...AMAZON_IMAGES][0]!;
aws.resources.push({
  arn: "arn:aws:ec2:eu-west-1::image/ami-0000000000000own1",
  type: "AWS::EC2::Image",
  accountId: account,
  region: "eu-west-1",
  name: "ami-0000000000000own1",
  properties: {},
});
const policy = (state: string, criteria: Record<string, unknown>): EffectiveDeclarative =>
  new Map<string, unknown>([
    ["exception_message", "ask at /req"],
    ["allowed_images_settings.state", state],
    ...Object.entries(criteria).map(
      ([k, v]) => [`allowed_images_settings.image_criteria.${k}`, v] as [string, unknown],
    ),
  ]);
const NO_METADATA = { httpTokens: null, httpEndpoint: null, hopLimit: null, instanceMetadataTags: null };
const refused = (effective: EffectiveDeclarative, image: string) =>
  declarativeRefusal(effective, runInstancesRequest(aws, account, NO_METADATA, image))?.message;

describe("Allowed AMIs in the sandbox", () => {
  it("allows listed providers and the account's own images, refuses unknown ones with the message", () => {
    const amazonOnly = policy("enabled", { "criteria_1.allowed_image_providers": ["amazon"] });
    expect(refused(amazonOnly, amazon)).toBeUndefined();
    expect(refused(amazonOnly, "ami-0000000000000own1")).toBeUndefined();
    expect(refused(amazonOnly, "ami-0abcdef1234567890")).toContain("ask at /req");
    expect(
      refused(policy("enabled", { "criteria_1.allowed_image_providers": ["aws-marketplace"] }), amazon),
    ).toContain("provider amazon");
  });
  it("restricts nothing in audit mode or when disabled", () => {
    for (const state of ["audit_mode", "disabled"])
      expect(
        refused(policy(state, { "criteria_1.allowed_image_providers": [] }), "ami-0abcdef1234567890"),
      ).toBeUndefined();
  });
  it("matches nothing with a criterion it cannot evaluate, and needs only one criterion to match", () => {
    const named = policy("enabled", {
      "criteria_1.allowed_image_providers": ["amazon"],
      "criteria_1.image_names": ["al2023-*"],
    });
    expect(refused(named, amazon)).toContain("not allowed");
    const either = policy("enabled", {
      "criteria_1.allowed_image_providers": ["aws-marketplace"],
      "criteria_2.allowed_image_providers": ["amazon"],
    });
    expect(refused(either, amazon)).toBeUndefined();
  });
});

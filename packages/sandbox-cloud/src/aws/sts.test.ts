import { describe, expect, it } from "vitest";
import { trustAllows } from "./sts";

const caller = "arn:aws:iam::111111111111:user/palisade-connector";
const trust = (statement: Record<string, unknown>) =>
  JSON.stringify({
    Version: "2012-10-17",
    Statement: [{ Effect: "Allow", Action: "sts:AssumeRole", ...statement }],
  });

describe("trustAllows", () => {
  it.each([
    [
      "exact principal, right external id",
      trust({ Principal: { AWS: caller }, Condition: { StringEquals: { "sts:ExternalId": "e1" } } }),
      "e1",
      true,
    ],
    [
      "exact principal, wrong external id",
      trust({ Principal: { AWS: caller }, Condition: { StringEquals: { "sts:ExternalId": "e1" } } }),
      "e2",
      false,
    ],
    [
      "exact principal, missing external id",
      trust({ Principal: { AWS: caller }, Condition: { StringEquals: { "sts:ExternalId": "e1" } } }),
      undefined,
      false,
    ],
    [
      "account root principal",
      trust({ Principal: { AWS: "arn:aws:iam::111111111111:root" } }),
      undefined,
      true,
    ],
    ["other account", trust({ Principal: { AWS: "arn:aws:iam::222222222222:root" } }), undefined, false],
    [
      "StringLike external id",
      trust({ Principal: { AWS: caller }, Condition: { StringLike: { "sts:ExternalId": "pal-*" } } }),
      "pal-9",
      true,
    ],
  ])("%s", (_name, policy, externalId, expected) => {
    expect(trustAllows(policy, caller, { "sts:externalid": externalId })).toBe(expected);
  });
});

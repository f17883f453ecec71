import { describe, expect, it } from "vitest";
import type { AwsCloudProvider } from "../../cloud/cloud-provider";
import { DECLARATIVE_EC2, declarativeFailure, fullTargets } from "./declarative-apply";

// AWS Organizations allows 10 declarative policies per root, OU or account by default
// (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_reference_limits.html).
function provider(attachedTo: string[], counts: Record<string, number>) {
  const asked: string[] = [];
  const fake = {
    listScpTargets: async () => attachedTo,
    listTargetScps: async (target: string, type?: string) => {
      asked.push(`${target} ${type}`);
      return Array.from({ length: counts[target] ?? 0 }, (_, i) => ({
        id: `p-${i}`,
        arn: "",
        name: `other-${i}`,
        awsManaged: false,
      }));
    },
  } as unknown as AwsCloudProvider;
  return { fake, asked };
}

describe("fullTargets", () => {
  it("names new targets that already hold 10 declarative policies, counting that type only", async () => {
    const { fake, asked } = provider([], { "ou-a": 10, "ou-b": 9 });
    expect(await fullTargets(fake, ["ou-a", "ou-b"], "p-mine")).toEqual(["ou-a"]);
    expect(asked).toEqual([`ou-a ${DECLARATIVE_EC2}`, `ou-b ${DECLARATIVE_EC2}`]);
  });

  it("does not count a target the policy is already attached to", async () => {
    const { fake } = provider(["ou-a"], { "ou-a": 10 });
    expect(await fullTargets(fake, ["ou-a"], "p-mine")).toEqual([]);
  });
});

describe("declarativeFailure", () => {
  it("says how to enable declarative policies when the organisation has not", () => {
    const error = Object.assign(
      new Error("The specified policy type isn't currently enabled in this root."),
      {
        name: "PolicyTypeNotEnabledException",
      },
    );
    const failure = declarativeFailure(error, true, ["ou-ab12-prod"]);
    expect(failure.code).toBe("CREATE_POLICY_PROVIDER_FAILED");
    expect(failure.message).toContain(
      "aws organizations enable-policy-type --root-id <root id> --policy-type DECLARATIVE_POLICY_EC2",
    );
  });

  it("leaves other refusals to the common mapping", () => {
    const error = Object.assign(new Error("You have attached the maximum number of policies"), {
      name: "ConstraintViolationException",
      Reason: "MAX_POLICY_TYPE_ATTACHMENT_LIMIT_EXCEEDED",
    });
    expect(declarativeFailure(error, true, ["ou-ab12-prod"]).code).toBe("POLICY_LIMIT_EXCEEDED");
  });
});

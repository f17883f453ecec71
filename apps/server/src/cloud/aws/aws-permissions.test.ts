import { WildcardPattern } from "@palisade/policy-engine/evaluators/scp/policy-string";
import { describe, expect, it } from "vitest";
import { awsPermissionsPolicy } from "./aws-permissions";

/** Whether an IAM `Resource` pattern matches an ARN, as IAM compares them. */
const matches = (pattern: string, arn: string) =>
  new WildcardPattern(pattern, { caseInsensitive: false, arnComponents: true, variables: false }).matches(
    arn,
    () => undefined,
  ) === true;

// ARN formats of the `policy` and `awspolicy` resource types
// (https://docs.aws.amazon.com/service-authorization/latest/reference/list_awsorganizations.html#awsorganizations-resources-for-iam-policies)
// and policy ARNs as Organizations returns them
// (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_policies_create.html).
describe("the connector role's policy ARNs", () => {
  const statement = awsPermissionsPolicy().Statement.find((s) => s.Sid === "PalisadeManageTaggedScps");
  const resources = (statement?.Resource ?? []) as string[];
  const covered = (arn: string) => resources.some((pattern) => matches(pattern, arn));

  it("cover the organisation's own SCPs, RCPs and declarative policies for EC2", () => {
    for (const type of ["service_control_policy", "resource_control_policy", "declarative_policy_ec2"])
      expect(
        covered(`arn:aws:organizations::123456789012:policy/o-aa111bb222/${type}/p-i9j8k7l6m5`),
        type,
      ).toBe(true);
  });

  it("leave out other policy types and AWS-managed policies", () => {
    expect(covered("arn:aws:organizations::123456789012:policy/o-aa111bb222/tag_policy/p-i9j8k7l6m5")).toBe(
      false,
    );
    expect(covered("arn:aws:organizations::aws:policy/service_control_policy/p-FullAWSAccess")).toBe(false);
    expect(covered("arn:aws:organizations::aws:policy/resource_control_policy/p-RCPFullAWSAccess")).toBe(
      false,
    );
  });
});

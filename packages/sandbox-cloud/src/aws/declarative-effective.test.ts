import { describe, expect, it } from "vitest";
import { createSeedState } from "../state/seed";
import { effectiveDeclarative } from "./declarative-effective";
import { DECLARATIVE_EC2, targetPath } from "./organization-tree";

// Inheritance of declarative policies: root, then each OU, then the account; a child's @@assign
// replaces its parent's unless the parent allowed no operators to children
// (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_inheritance_mgmt.html).

function layout(policies: Record<string, unknown>[]) {
  const aws = createSeedState(1).aws;
  const account = aws.accounts.find((a) => a.parentId !== aws.rootId)!;
  const path = targetPath(aws, account.id);
  aws.enabledPolicyTypes = [DECLARATIVE_EC2];
  policies.forEach((attrs, i) => {
    aws.policies.push({
      id: `p-decl${i}`,
      name: `decl-${i}`,
      description: "",
      content: JSON.stringify({ ec2_attributes: attrs }),
      awsManaged: false,
      type: DECLARATIVE_EC2,
    });
    // Policy i on level i: the root, the OU(s), the account.
    aws.attachments.push({ policyId: `p-decl${i}`, targetId: path[Math.min(i, path.length - 1)]! });
  });
  return { aws, account: account.id };
}
const tokens = (value: string, lock = false) => ({
  instance_metadata_defaults: {
    http_tokens: {
      "@@assign": value,
      ...(lock ? { "@@operators_allowed_for_child_policies": ["@@none"] } : {}),
    },
  },
});

describe("effective declarative policy", () => {
  it("lets a child's @@assign replace its parent's", () => {
    const { aws, account } = layout([tokens("required"), tokens("optional")]);
    expect(effectiveDeclarative(aws, account).get("instance_metadata_defaults.http_tokens")).toBe("optional");
  });
  it("keeps the parent's value when the parent allows children no operator", () => {
    const { aws, account } = layout([tokens("required", true), tokens("optional")]);
    expect(effectiveDeclarative(aws, account).get("instance_metadata_defaults.http_tokens")).toBe("required");
  });
  it("merges attributes set at different levels, and is empty while the type is disabled", () => {
    const { aws, account } = layout([
      { exception_message: { "@@assign": "ask at /req" } },
      tokens("required"),
    ]);
    const effective = effectiveDeclarative(aws, account);
    expect(Object.fromEntries(effective)).toEqual({
      exception_message: "ask at /req",
      "instance_metadata_defaults.http_tokens": "required",
    });
    aws.enabledPolicyTypes = [];
    expect(effectiveDeclarative(aws, account).size).toBe(0);
  });
  it("adds up @@append lists from each level (allowed image providers)", () => {
    const providers = (list: string[]) => ({
      allowed_images_settings: {
        image_criteria: { criteria_1: { allowed_image_providers: { "@@append": list } } },
      },
    });
    const { aws, account } = layout([providers(["amazon"]), providers(["111122223333"])]);
    expect(
      effectiveDeclarative(aws, account).get(
        "allowed_images_settings.image_criteria.criteria_1.allowed_image_providers",
      ),
    ).toEqual(["amazon", "111122223333"]);
  });
});

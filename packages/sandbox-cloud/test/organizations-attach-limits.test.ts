import {
  AttachPolicyCommand,
  CreatePolicyCommand,
  EnablePolicyTypeCommand,
  ListChildrenCommand,
  ListRootsCommand,
  type OrganizationsClient,
  type PolicyType,
} from "@aws-sdk/client-organizations";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "./sandbox-harness";

// "Number of policies that you can attach to an entity"
// (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_reference_limits.html#min-max-policies):
// 5 RCPs per root, OU or account, RCPFullAWSAccess counted; AWS allows 10 declarative policies, the
// sandbox 5 (stricter than AWS).

let h: Harness;
let org: OrganizationsClient;
let rootId: string;
let ouId: string;
beforeAll(async () => {
  h = await startHarness();
  org = await h.connectorOrganizations();
  const { Roots } = await org.send(new ListRootsCommand({}));
  rootId = Roots![0]!.Id!;
  const { Children } = await org.send(
    new ListChildrenCommand({ ParentId: rootId, ChildType: "ORGANIZATIONAL_UNIT" }),
  );
  ouId = Children![0]!.Id!;
});
afterAll(() => h.stop());

/** Creates `count` policies of a type, attaches them to the OU and answers the Reason of the last attach. */
async function attachUpTo(type: PolicyType, content: (i: number) => string, count: number) {
  await org.send(new EnablePolicyTypeCommand({ RootId: rootId, PolicyType: type }));
  let reason = "";
  for (let i = 0; i < count; i++) {
    const { Policy } = await org.send(
      new CreatePolicyCommand({ Name: `${type}-${i}`, Description: "", Type: type, Content: content(i) }),
    );
    try {
      await org.send(new AttachPolicyCommand({ PolicyId: Policy!.PolicySummary!.Id!, TargetId: ouId }));
    } catch (err) {
      reason = (err as { Reason?: string }).Reason ?? String(err);
      expect(i, `attachment ${i + 1} refused`).toBe(count - 1);
    }
  }
  return reason;
}

describe("policies attached per target", () => {
  it("refuses a fifth RCP beside RCPFullAWSAccess", async () => {
    const rcp = (i: number) =>
      JSON.stringify({
        Version: "2012-10-17",
        Statement: [{ Sid: `R${i}`, Effect: "Deny", Principal: "*", Action: "s3:*", Resource: "*" }],
      });
    expect(await attachUpTo("RESOURCE_CONTROL_POLICY", rcp, 5)).toBe(
      "MAX_POLICY_TYPE_ATTACHMENT_LIMIT_EXCEEDED",
    );
  });

  it("refuses a sixth declarative policy, where AWS would allow ten", async () => {
    const declarative = (i: number) =>
      JSON.stringify({
        ec2_attributes: {
          snapshot_block_public_access: {
            state: { "@@assign": i % 2 ? "block_all_sharing" : "block_new_sharing" },
          },
        },
      });
    expect(await attachUpTo("DECLARATIVE_POLICY_EC2", declarative, 6)).toBe(
      "MAX_POLICY_TYPE_ATTACHMENT_LIMIT_EXCEEDED",
    );
  });
});

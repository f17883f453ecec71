import {
  AttachPolicyCommand,
  CreatePolicyCommand,
  EnablePolicyTypeCommand,
  ListRootsCommand,
} from "@aws-sdk/client-organizations";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Harness, startHarness } from "./sandbox-harness";

// A declarative policy for EC2 on the root governs `/sandbox/try` launches as it governs EC2's own
// endpoint: without IMDSv2 a launch is refused with the policy's exception_message
// (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_declarative_syntax.html).

let h: Harness;
const MESSAGE = "IMDSv2 only; request a waiver at https://palisade.example/req?k=ABC1234";
const tryRun = (context: Record<string, string>) =>
  h.post("/sandbox/try", {
    provider: "aws",
    account: "payments-dev",
    principal: "role/Developer",
    action: "ec2:RunInstances",
    resource: "arn:aws:ec2:eu-west-1:*:instance/*",
    context,
  });

beforeAll(async () => {
  h = await startHarness();
  const org = await h.connectorOrganizations();
  const rootId = (await org.send(new ListRootsCommand({}))).Roots![0]!.Id!;
  await org.send(new EnablePolicyTypeCommand({ RootId: rootId, PolicyType: "DECLARATIVE_POLICY_EC2" }));
  const created = await org.send(
    new CreatePolicyCommand({
      Name: "imds-v2",
      Description: "IMDSv2 by default",
      Type: "DECLARATIVE_POLICY_EC2",
      Content: JSON.stringify({
        ec2_attributes: {
          exception_message: { "@@assign": MESSAGE },
          instance_metadata_defaults: { http_tokens: { "@@assign": "required" } },
        },
      }),
    }),
  );
  await org.send(new AttachPolicyCommand({ PolicyId: created.Policy!.PolicySummary!.Id!, TargetId: rootId }));
}, 60_000);
afterAll(async () => {
  await h?.stop();
});

it("refuses an IMDSv1 launch with the policy's message and allows an IMDSv2 one", async () => {
  const refused = await tryRun({ "ec2:MetadataHttpTokens": "optional" });
  expect(refused.status).toBe(403);
  expect(refused.body).toMatchObject({ allowed: false, error: { Code: "UnauthorizedOperation" } });
  expect(JSON.stringify(refused.body)).toContain(MESSAGE);
  const allowed = await tryRun({ "ec2:MetadataHttpTokens": "required" });
  expect(allowed.body).toMatchObject({ allowed: true });
});

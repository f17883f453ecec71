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
let rootId: string;
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
  rootId = (await org.send(new ListRootsCommand({}))).Roots![0]!.Id!;
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

// The settings a declarative policy sets cannot be changed by the account, and Allowed AMIs governs
// a launch's image (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ec2-allowed-amis.html).
it("refuses a change to a setting the policy sets, and a launch from an image it does not allow", async () => {
  const tryAction = (action: string, context: Record<string, string> = {}) =>
    h.post("/sandbox/try", {
      provider: "aws",
      account: "payments-dev",
      principal: "role/Developer",
      action,
      resource: "*",
      context,
    });
  const launch = (image: string) =>
    tryRun({ "ec2:MetadataHttpTokens": "required", "ec2:ImageID": `arn:aws:ec2:eu-west-1::image/${image}` });
  expect((await tryAction("ec2:EnableSerialConsoleAccess")).body).toMatchObject({ allowed: true });
  expect((await launch("ami-0abcdef1234567890")).body).toMatchObject({ allowed: true });

  const org = await h.connectorOrganizations();
  const created = await org.send(
    new CreatePolicyCommand({
      Name: "ec2-baseline",
      Description: "Serial console off, Amazon images only",
      Type: "DECLARATIVE_POLICY_EC2",
      Content: JSON.stringify({
        ec2_attributes: {
          exception_message: { "@@assign": MESSAGE },
          serial_console_access: { status: { "@@assign": "disabled" } },
          allowed_images_settings: {
            state: { "@@assign": "enabled" },
            image_criteria: { criteria_1: { allowed_image_providers: { "@@append": ["amazon"] } } },
          },
        },
      }),
    }),
  );
  await org.send(new AttachPolicyCommand({ PolicyId: created.Policy!.PolicySummary!.Id!, TargetId: rootId }));

  for (const refused of [
    await tryAction("ec2:EnableSerialConsoleAccess"),
    await tryAction("ec2:DisableSerialConsoleAccess"),
    await launch("ami-0abcdef1234567890"),
  ]) {
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ allowed: false, error: { Code: "UnauthorizedOperation" } });
    expect(JSON.stringify(refused.body)).toContain(MESSAGE);
  }
  expect((await launch("ami-0c02fb55956c7d316")).body).toMatchObject({ allowed: true });
  // What the policy does not set stays the account's to change.
  expect((await tryAction("ec2:EnableImageBlockPublicAccess")).body).toMatchObject({ allowed: true });
});

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  AttachPolicyCommand,
  CreatePolicyCommand,
  ListPoliciesCommand,
  ListRootsCommand,
} from "@aws-sdk/client-organizations";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Harness, startHarness } from "./sandbox-harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

it("keeps deployed policies, the clock and audit records across a restart", async () => {
  const org = await h.connectorOrganizations();
  const { Roots } = await org.send(new ListRootsCommand({}));
  const created = await org.send(
    new CreatePolicyCommand({
      Name: "pal-deny-leave-org",
      Description: "",
      Type: "SERVICE_CONTROL_POLICY",
      Content: JSON.stringify({
        Version: "2012-10-17",
        Statement: [{ Effect: "Deny", Action: "organizations:LeaveOrganization", Resource: "*" }],
      }),
    }),
  );
  await org.send(
    new AttachPolicyCommand({ PolicyId: created.Policy!.PolicySummary!.Id!, TargetId: Roots![0]!.Id! }),
  );
  await h.post("/sandbox/control/clock", { advanceSeconds: 86_400 });
  const denied = await h.post("/sandbox/try", {
    provider: "aws",
    account: "payments-prod",
    principal: "role/Admin",
    action: "organizations:LeaveOrganization",
    resource: "*",
  });
  expect(denied.status).toBe(403);
  const before = { url: h.cloud.url, tenant: h.cloud.azure.tenantId, ca: h.cloud.azure.caCertPem };

  await h.restart();
  expect(existsSync(join(h.dataDir, "sandbox-state.json"))).toBe(true);
  expect(
    JSON.parse(readFileSync(join(h.dataDir, "sandbox-state.json"), "utf8")).aws.trail.length,
  ).toBeGreaterThan(0);
  expect(h.cloud.azure.tenantId).toBe(before.tenant);
  expect(h.cloud.azure.caCertPem).toBe(before.ca);

  // Access keys issued by AssumeRole before the restart stay valid until they expire.
  const policies = await org.send(new ListPoliciesCommand({ Filter: "SERVICE_CONTROL_POLICY" }));
  expect(policies.Policies?.map((p) => p.Name)).toContain("pal-deny-leave-org");
  const clock = await h.post("/sandbox/control/clock", {});
  expect(clock.body.offsetSeconds).toBe(86_400);
  const again = await h.post("/sandbox/try", {
    provider: "aws",
    account: "payments-prod",
    principal: "role/Admin",
    action: "organizations:LeaveOrganization",
    resource: "*",
  });
  expect(again.status).toBe(403);
});

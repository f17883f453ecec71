// biome-ignore-all lint/suspicious/noThenProperty: Azure policy rules are { if, then } objects.
import { PolicyClient } from "@azure/arm-policy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness, TEST_PROPAGATION_SECONDS } from "./sandbox-harness";

// "It takes around five minutes for the assignment to be applied to the defined scope"; an
// exemption is honoured by the same evaluation:
// https://learn.microsoft.com/en-us/azure/governance/policy/how-to/get-compliance-data#evaluation-triggers

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

const rule = {
  if: {
    allOf: [
      { field: "type", equals: "Microsoft.Storage/storageAccounts" },
      { field: "Microsoft.Storage/storageAccounts/supportsHttpsTrafficOnly", notEquals: true },
    ],
  },
  then: { effect: "[parameters('effect')]" },
};

async function subscription(name: string): Promise<string> {
  const out = await h.arm("GET", "/subscriptions?api-version=2022-12-01");
  const found = (out.body.value as { subscriptionId: string; displayName: string }[]).find(
    (s) => s.displayName === name,
  );
  if (!found) throw new Error(`no subscription ${name}`);
  return found.subscriptionId;
}

async function clockNow(): Promise<number> {
  return Date.parse((await h.post("/sandbox/control/clock", {})).body.now as string);
}

const advance = (seconds: number) => h.post("/sandbox/control/clock", { advanceSeconds: seconds });

describe("Azure policy propagation (get-compliance-data#evaluation-triggers)", () => {
  it("states its delay, refuses zero and takes a new positive one", async () => {
    expect(h.cloud.azure.policyPropagationSeconds).toBe(TEST_PROPAGATION_SECONDS);
    const info = (await fetch(`${h.cloud.url}/sandbox/info`).then((r) => r.json())) as {
      azure: { policyPropagationSeconds: number };
    };
    expect(info.azure.policyPropagationSeconds).toBe(TEST_PROPAGATION_SECONDS);
    expect((await h.post("/sandbox/control/propagation", { seconds: 0 })).status).toBe(400);
    expect((await h.post("/sandbox/control/propagation", { seconds: -5 })).status).toBe(400);
    expect((await h.post("/sandbox/control/propagation", { seconds: 90 })).body).toEqual({ seconds: 90 });
    expect(h.cloud.azure.policyPropagationSeconds).toBe(90);
    expect(
      (await h.post("/sandbox/control/propagation", { seconds: TEST_PROPAGATION_SECONDS })).body,
    ).toEqual({
      seconds: TEST_PROPAGATION_SECONDS,
    });
  });

  it("enforces a new assignment, and lets a new exemption through, only once the delay has passed", async () => {
    const sub = await subscription("corp-prod");
    const policy = new PolicyClient(h.azureCredential, sub, h.armOptions);
    await h.post("/sandbox/control/propagation", { seconds: 300 });
    const definition = await policy.policyDefinitions.createOrUpdate("pal-propagation", {
      mode: "Indexed",
      policyRule: rule,
      parameters: { effect: { type: "String", defaultValue: "Deny" } },
    });
    const assignment = await policy.policyAssignments.create(`/subscriptions/${sub}`, "pal-propagation", {
      policyDefinitionId: definition.id!,
      nonComplianceMessages: [{ message: "Use HTTPS" }],
    });
    const resource = (name: string) =>
      `/subscriptions/${sub}/resourceGroups/rg-corp-prod-data/providers/Microsoft.Storage/storageAccounts/${name}`;
    const write = (name: string) =>
      h.post("/sandbox/try", {
        provider: "azure",
        principal: "alice",
        action: "write",
        resource: resource(name),
        context: { "properties.supportsHttpsTrafficOnly": "false" },
      });

    // The PUT has returned, but Azure has not applied the assignment yet.
    expect((await write("stprop1")).status).toBe(200);
    await advance(299);
    expect((await write("stprop2")).status).toBe(200);
    await advance(1);
    expect((await write("stprop3")).status).toBe(403);

    // Rewriting the same assignment (as a reconcile does) keeps it in force.
    await policy.policyAssignments.create(`/subscriptions/${sub}`, "pal-propagation", {
      policyDefinitionId: definition.id!,
      nonComplianceMessages: [{ message: "Use HTTPS" }],
    });
    expect((await write("stprop4")).status).toBe(403);

    const now = await clockNow();
    const exemption = `/subscriptions/${sub}/providers/Microsoft.Authorization/policyExemptions/pal-waiver-prop`;
    const put = await h.arm("PUT", `${exemption}?api-version=2022-07-01-preview`, {
      properties: {
        policyAssignmentId: assignment.id,
        exemptionCategory: "Waiver",
        expiresOn: new Date(now + 3_600_000).toISOString(),
      },
    });
    expect(put.status).toBe(201);
    // The exemption is stored and listed at once, but a try during its propagation is still denied.
    expect((await h.arm("GET", `${exemption}?api-version=2022-07-01-preview`)).status).toBe(200);
    expect((await write("stprop5")).status).toBe(403);
    await advance(300);
    expect((await write("stprop6")).status).toBe(200);

    // A deleted exemption stops letting anything through at once.
    expect((await h.arm("DELETE", `${exemption}?api-version=2022-07-01-preview`)).status).toBe(200);
    expect((await write("stprop7")).status).toBe(403);
    await h.post("/sandbox/control/propagation", { seconds: TEST_PROPAGATION_SECONDS });
  });

  it("keeps enforcing the applied version of a changed assignment until the change propagates", async () => {
    const sub = await subscription("online-prod");
    const policy = new PolicyClient(h.azureCredential, sub, h.armOptions);
    const definition = await policy.policyDefinitions.createOrUpdate("pal-propagation-change", {
      mode: "Indexed",
      policyRule: rule,
      parameters: { effect: { type: "String", defaultValue: "Deny" } },
    });
    const assign = (effect: string) =>
      policy.policyAssignments.create(`/subscriptions/${sub}`, "pal-propagation-change", {
        policyDefinitionId: definition.id!,
        parameters: { effect: { value: effect } },
      });
    const write = (name: string) =>
      h.post("/sandbox/try", {
        provider: "azure",
        principal: "alice",
        action: "write",
        resource: `/subscriptions/${sub}/resourceGroups/rg-online-prod-data/providers/Microsoft.Storage/storageAccounts/${name}`,
        context: { "properties.supportsHttpsTrafficOnly": "false" },
      });
    await assign("Deny");
    await h.propagate();
    expect((await write("stchange1")).status).toBe(403);
    await assign("Audit");
    // Still the applied Deny until the change takes effect.
    expect((await write("stchange2")).status).toBe(403);
    await h.propagate();
    expect((await write("stchange3")).status).toBe(200);
  });

  it("keeps pending versions across a restart", async () => {
    const sub = await subscription("sandbox-01");
    const policy = new PolicyClient(h.azureCredential, sub, h.armOptions);
    await h.post("/sandbox/control/propagation", { seconds: 600 });
    const definition = await policy.policyDefinitions.createOrUpdate("pal-propagation-restart", {
      mode: "Indexed",
      policyRule: rule,
      parameters: { effect: { type: "String", defaultValue: "Deny" } },
    });
    await policy.policyAssignments.create(`/subscriptions/${sub}`, "pal-propagation-restart", {
      policyDefinitionId: definition.id!,
    });
    await h.restart();
    const write = (name: string) =>
      h.post("/sandbox/try", {
        provider: "azure",
        principal: "alice",
        action: "write",
        resource: `/subscriptions/${sub}/resourceGroups/rg-sandbox-01-data/providers/Microsoft.Storage/storageAccounts/${name}`,
        context: { "properties.supportsHttpsTrafficOnly": "false" },
      });
    expect((await write("strestart1")).status).toBe(200);
    await advance(600);
    expect((await write("strestart2")).status).toBe(403);
  });
});

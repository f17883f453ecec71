// biome-ignore-all lint/suspicious/noThenProperty: Azure policy rules are { if, then } objects.
import { ManagementGroupsAPI } from "@azure/arm-managementgroups";
import { type EventData, MonitorClient } from "@azure/arm-monitor";
import { PolicyClient } from "@azure/arm-policy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_ACTIVITY_LOG_LAG_MS } from "../src/azure/activity-log";
import { POLICY_INSIGHTS_APP_ID } from "../src/enforce/compliance-scan";
import { type Harness, startHarness } from "./sandbox-harness";

// The Activity Log as Microsoft's schema describes it:
// https://learn.microsoft.com/azure/azure-monitor/essentials/activity-log-schema

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

const storageRule = {
  if: {
    allOf: [
      { field: "type", equals: "Microsoft.Storage/storageAccounts" },
      { field: "Microsoft.Storage/storageAccounts/supportsHttpsTrafficOnly", notEquals: true },
    ],
  },
  then: { effect: "[parameters('effect')]" },
};
const insecure = { "properties.supportsHttpsTrafficOnly": "false", kind: "StorageV2" };

async function subscription(name: string): Promise<string> {
  const mg = new ManagementGroupsAPI(h.azureCredential, h.armOptions);
  for await (const d of mg.managementGroups.listDescendants(h.cloud.azure.rootManagementGroupId)) {
    if (d.type === "Microsoft.Management/managementGroups/subscriptions" && d.displayName === name)
      return d.name!;
  }
  throw new Error(`no subscription ${name}`);
}

const storage = (sub: string, group: string, name: string) =>
  `/subscriptions/${sub}/resourceGroups/${group}/providers/Microsoft.Storage/storageAccounts/${name}`;
const tryAzure = (body: Record<string, unknown>) => h.post("/sandbox/try", { provider: "azure", ...body });
const sandboxNow = async () => Date.parse((await h.post("/sandbox/control/clock", {})).body.now as string);
const advancePastLag = () =>
  h.post("/sandbox/control/clock", { advanceSeconds: DEFAULT_ACTIVITY_LOG_LAG_MS / 1000 });

async function activityLog(sub: string, since: number): Promise<EventData[]> {
  const monitor = new MonitorClient(h.azureCredential, sub, {
    ...h.armOptions,
    baseUri: h.cloud.azure.armEndpoint,
  });
  const events: EventData[] = [];
  for await (const e of monitor.activityLogs.list(`eventTimestamp ge '${new Date(since).toISOString()}'`))
    events.push(e);
  return events;
}

async function assign(sub: string, name: string, effect: string, enforcementMode = "Default") {
  const policy = new PolicyClient(h.azureCredential, sub, h.armOptions);
  const definition = await policy.policyDefinitions.createOrUpdate(name, {
    mode: "Indexed",
    policyRule: storageRule,
    parameters: { effect: { type: "String", defaultValue: effect } },
  });
  const assignment = await policy.policyAssignments.create(`/subscriptions/${sub}`, name, {
    policyDefinitionId: definition.id!,
    parameters: { effect: { value: effect } },
    enforcementMode,
  });
  // Azure applies an assignment minutes after it is written; the sandbox too.
  await h.propagate();
  return assignment;
}

const policiesOf = (e: EventData) =>
  JSON.parse(e.properties?.policies ?? "[]") as {
    policyAssignmentId: string;
    policyDefinitionEffect: string;
  }[];

describe("Activity Log", () => {
  it("lists a denial's Policy deny/action record and failed write once submitted, after they happened", async () => {
    const sub = await subscription("online-dev");
    const assignment = await assign(sub, "pal-activity-deny", "Deny");
    const since = await sandboxNow();
    const denied = await tryAzure({
      principal: "alice",
      action: "write",
      resource: storage(sub, "rg-online-dev-data", "stdenied1"),
      context: insecure,
    });
    expect(denied.status).toBe(403);
    const ofDenial = (events: EventData[]) =>
      events.filter((e) => e.correlationId === denied.body.correlationId);
    expect(ofDenial(await activityLog(sub, since))).toEqual([]);

    await advancePastLag();
    const events = ofDenial(await activityLog(sub, since));
    const policyRecord = events.find((e) => e.category?.value === "Policy");
    expect(policyRecord).toMatchObject({
      operationName: { value: "Microsoft.Authorization/policies/deny/action" },
      level: "Error",
      status: { value: "Failed" },
      properties: { isComplianceCheck: "False" },
    });
    expect(policiesOf(policyRecord!)).toEqual([
      expect.objectContaining({ policyAssignmentId: assignment.id, policyDefinitionEffect: "deny" }),
    ]);
    const write = events.find((e) => e.category?.value === "Administrative");
    expect(write).toMatchObject({
      operationName: { value: "Microsoft.Storage/storageAccounts/write" },
      status: { value: "Failed" },
      subStatus: { value: "Forbidden" },
      authorization: { action: "Microsoft.Storage/storageAccounts/write" },
    });
    const error = JSON.parse(write!.properties!.statusMessage!).error;
    expect(error.code).toBe("RequestDisallowedByPolicy");
    expect(error.additionalInfo[0].info.policyAssignmentId).toBe(assignment.id);
    for (const e of events) {
      const lag = e.submissionTimestamp!.getTime() - e.eventTimestamp!.getTime();
      expect(lag).toBeGreaterThan(0);
      expect(lag).toBeLessThanOrEqual(DEFAULT_ACTIVITY_LOG_LAG_MS);
    }
  });

  it("answers with its own time in the Date header (https://github.com/Azure/azure-resource-manager-rpc/blob/master/v1.0/common-api-details.md#response-headers), the clock its events' times are on", async () => {
    const sub = await subscription("online-dev");
    await h.post("/sandbox/control/clock", { advanceSeconds: 3_600 });
    const monitor = new MonitorClient(h.azureCredential, sub, {
      ...h.armOptions,
      baseUri: h.cloud.azure.armEndpoint,
    });
    const dates: number[] = [];
    const since = new Date((await sandboxNow()) - 86_400_000).toISOString();
    const listed = monitor.activityLogs.list(`eventTimestamp ge '${since}'`, {
      onResponse: (response) => dates.push(Date.parse(response.headers.get("date") ?? "")),
    });
    const submitted: number[] = [];
    for await (const e of listed) submitted.push(e.submissionTimestamp!.getTime());
    const now = await sandboxNow();
    expect(dates.length).toBeGreaterThan(0);
    for (const date of dates) {
      // The header is in whole seconds.
      expect(Math.abs(date - now)).toBeLessThan(5_000);
      expect(date - Date.now()).toBeGreaterThan(3_500_000);
    }
    // Whatever was listed had been submitted by the time of the answer.
    for (const at of submitted) expect(at).toBeLessThanOrEqual(Math.max(...dates) + 1_000);
  });

  it("marks a compliance scan's audit records isComplianceCheck True and a request's False", async () => {
    const sub = await subscription("online-prod");
    const since = await sandboxNow();
    const existing = storage(sub, "rg-online-prod-data", "stexisting1");
    expect(
      (await tryAzure({ principal: "bob", action: "write", resource: existing, context: insecure })).status,
    ).toBe(200);
    const assignment = await assign(sub, "pal-activity-audit", "Audit");
    const requested = storage(sub, "rg-online-prod-data", "strequested1");
    expect(
      (await tryAzure({ principal: "bob", action: "write", resource: requested, context: insecure })).status,
    ).toBe(200);
    await advancePastLag();
    const audits = (await activityLog(sub, since)).filter(
      (e) =>
        e.operationName?.value === "Microsoft.Authorization/policies/audit/action" &&
        policiesOf(e).some((p) => p.policyAssignmentId === assignment.id),
    );
    const scan = audits.filter((e) => e.resourceId === existing);
    expect(scan).toHaveLength(1);
    expect(scan[0]).toMatchObject({
      caller: POLICY_INSIGHTS_APP_ID,
      level: "Warning",
      resourceType: { value: "Microsoft.Resources/checkPolicyCompliance" },
      authorization: { action: "Microsoft.Resources/checkPolicyCompliance/read" },
      properties: { isComplianceCheck: "True" },
    });
    const request = audits.filter((e) => e.resourceId === requested);
    expect(request).toHaveLength(1);
    expect(request[0]?.properties?.isComplianceCheck).toBe("False");
    expect(request[0]?.caller).toBe("bob@contoso.example");
  });

  // "When enforcementMode is disabled, resources are still evaluated. Logging, such as Activity
  // logs, and the policy effect don't occur": https://learn.microsoft.com/azure/governance/policy/concepts/effect-disabled
  it("writes no Policy records for a DoNotEnforce assignment, which still reports non-compliance", async () => {
    const sub = await subscription("sandbox-01");
    const since = await sandboxNow();
    const existing = storage(sub, "rg-sandbox-01-data", "stdonotenforce0");
    await tryAzure({ principal: "bob", action: "write", resource: existing, context: insecure });
    const assignment = await assign(sub, "pal-activity-dne", "Deny", "DoNotEnforce");
    const resource = storage(sub, "rg-sandbox-01-data", "stdonotenforce1");
    const out = await tryAzure({ principal: "bob", action: "write", resource, context: insecure });
    expect(out.status).toBe(200);

    const states = await h.arm(
      "POST",
      `/subscriptions/${sub}/providers/Microsoft.PolicyInsights/policyStates/latest/queryResults?api-version=2019-10-01&$filter=${encodeURIComponent("complianceState eq 'NonCompliant'")}`,
    );
    const nonCompliant = (states.body.value as { resourceId: string; policyAssignmentId: string }[])
      .filter((s) => s.policyAssignmentId === assignment.id)
      .map((s) => s.resourceId);
    expect(nonCompliant).toEqual(expect.arrayContaining([existing, resource]));

    await advancePastLag();
    const events = await activityLog(sub, since);
    expect(events.filter((e) => e.category?.value === "Policy")).toEqual([]);
    expect(
      events.some((e) => e.correlationId === out.body.correlationId && e.status?.value === "Succeeded"),
    ).toBe(true);
  });
});

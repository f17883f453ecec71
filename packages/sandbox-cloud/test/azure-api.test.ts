// biome-ignore-all lint/suspicious/noThenProperty: Azure policy rules are { if, then } objects.
import { ManagementGroupsAPI } from "@azure/arm-managementgroups";
import { MonitorClient } from "@azure/arm-monitor";
import { PolicyClient } from "@azure/arm-policy";
import { ResourceManagementClient } from "@azure/arm-resources";
import { ClientSecretCredential } from "@azure/identity";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_ACTIVITY_LOG_LAG_MS } from "../src/azure/activity-log";
import { type Harness, startHarness } from "./sandbox-harness";

const EXEMPTION_API = "2022-07-01-preview";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

async function subscriptions(): Promise<{ id: string; name: string }[]> {
  const mg = new ManagementGroupsAPI(h.azureCredential, h.armOptions);
  const out: { id: string; name: string }[] = [];
  for await (const d of mg.managementGroups.listDescendants(h.cloud.azure.rootManagementGroupId)) {
    if (d.type === "Microsoft.Management/managementGroups/subscriptions")
      out.push({ id: d.name!, name: d.displayName! });
  }
  return out;
}

const denyHttpRule = {
  if: {
    allOf: [
      { field: "type", equals: "Microsoft.Storage/storageAccounts" },
      { field: "Microsoft.Storage/storageAccounts/supportsHttpsTrafficOnly", notEquals: true },
    ],
  },
  then: { effect: "[parameters('effect')]" },
};

describe("Azure identity and hierarchy", () => {
  it("issues tokens only to configured client secrets", async () => {
    const token = await h.azureCredential.getToken("https://management.azure.com/.default");
    expect(token.token.split(".")).toHaveLength(3);
    const wrong = new ClientSecretCredential(
      h.cloud.azure.tenantId,
      h.cloud.azure.clientId,
      "not-the-secret",
      {
        authorityHost: h.cloud.azure.authorityHost,
        disableInstanceDiscovery: true,
        agent: h.agent,
      },
    );
    await expect(wrong.getToken("https://management.azure.com/.default")).rejects.toThrow(/AADSTS7000215/);
  });

  it("lists management groups, subscriptions and resource groups", async () => {
    const mg = new ManagementGroupsAPI(h.azureCredential, h.armOptions);
    const names: string[] = [];
    for await (const g of mg.managementGroups.list()) names.push(g.name!);
    expect(names).toEqual(
      expect.arrayContaining([h.cloud.azure.rootManagementGroupId, "platform", "corp", "online"]),
    );
    const root = await mg.managementGroups.get(h.cloud.azure.rootManagementGroupId, {
      expand: "children",
      recurse: true,
    });
    expect(root.children?.map((c) => c.name)).toContain("contoso");

    const subs = await subscriptions();
    expect(subs.length).toBeGreaterThanOrEqual(6);
    const rm = new ResourceManagementClient(h.azureCredential, subs[0]!.id, h.armOptions);
    const groups: string[] = [];
    for await (const g of rm.resourceGroups.list()) groups.push(g.name!);
    expect(groups.length).toBeGreaterThan(0);
  });

  it("answers 401 to a request without a token it issued", async () => {
    const res = await fetch(
      `${h.cloud.url}/providers/Microsoft.Management/managementGroups?api-version=2021-04-01`,
    );
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("InvalidAuthenticationToken");
  });
});

describe("Azure Policy objects", () => {
  it("puts, gets, lists and deletes definitions, assignments and exemptions", async () => {
    const [sub] = await subscriptions();
    const policy = new PolicyClient(h.azureCredential, sub!.id, h.armOptions);
    const root = h.cloud.azure.rootManagementGroupId;

    const definition = await policy.policyDefinitions.createOrUpdateAtManagementGroup(root, "pal-https", {
      displayName: "Storage accounts require HTTPS",
      mode: "Indexed",
      policyRule: denyHttpRule,
      parameters: {
        effect: { type: "String", defaultValue: "Deny", allowedValues: ["Deny", "Audit", "Disabled"] },
      },
    });
    expect(definition.id).toBe(
      `/providers/Microsoft.Management/managementGroups/${root}/providers/Microsoft.Authorization/policyDefinitions/pal-https`,
    );
    expect((await policy.policyDefinitions.getAtManagementGroup(root, "pal-https")).displayName).toBe(
      "Storage accounts require HTTPS",
    );
    const subDefinition = await policy.policyDefinitions.createOrUpdate("pal-sub-def", {
      mode: "All",
      policyRule: denyHttpRule,
      parameters: { effect: { type: "String", defaultValue: "Audit" } },
    });
    // Policy Definitions - List: the subscription's own, its management groups' and the built-ins;
    // atExactScope() only its own (https://learn.microsoft.com/en-us/rest/api/policy/policy-definitions/list).
    const subDefinitions = new Map<string, string | undefined>();
    for await (const d of policy.policyDefinitions.list()) subDefinitions.set(d.name!, d.policyType);
    expect(subDefinitions.get("pal-sub-def")).toBe("Custom");
    expect(subDefinitions.get("pal-https")).toBe("Custom");
    expect(subDefinitions.get("e56962a6-4747-49cd-b67b-bf8b01975c4c")).toBe("BuiltIn");
    const exact: string[] = [];
    for await (const d of policy.policyDefinitions.list({ filter: "atExactScope()" })) exact.push(d.name!);
    expect(exact).toEqual(["pal-sub-def"]);
    const allowedLocations = await policy.policyDefinitions.getBuiltIn(
      "e56962a6-4747-49cd-b67b-bf8b01975c4c",
    );
    expect(allowedLocations).toMatchObject({ displayName: "Allowed locations", policyType: "BuiltIn" });

    const scope = `/subscriptions/${sub!.id}`;
    const assignment = await policy.policyAssignments.create(scope, "pal-https-assign", {
      policyDefinitionId: definition.id!,
      parameters: { effect: { value: "Deny" } },
      nonComplianceMessages: [{ message: "HTTPS only [pal:ABC1234]" }],
    });
    expect(assignment.scope).toBe(scope);
    expect(
      (await policy.policyAssignments.get(scope, "pal-https-assign")).nonComplianceMessages?.[0]?.message,
    ).toBe("HTTPS only [pal:ABC1234]");
    const listed: string[] = [];
    for await (const a of policy.policyAssignments.list()) listed.push(a.name!);
    expect(listed).toContain("pal-https-assign");

    const missing = await policy.policyAssignments
      .get(scope, "nope")
      .catch((e: { code?: string; statusCode?: number }) => e);
    expect(missing).toMatchObject({ code: "PolicyAssignmentNotFound", statusCode: 404 });

    const rm = new ResourceManagementClient(h.azureCredential, sub!.id, h.armOptions);
    const exemptionId = `${scope}/providers/Microsoft.Authorization/policyExemptions/pal-waiver`;
    await rm.resources.createOrUpdateById(exemptionId, EXEMPTION_API, {
      properties: {
        policyAssignmentId: assignment.id,
        exemptionCategory: "Waiver",
        expiresOn: "2999-01-01T00:00:00Z",
      },
    });
    const exemption = await rm.resources.getById(exemptionId, EXEMPTION_API);
    expect(exemption.properties).toMatchObject({
      policyAssignmentId: assignment.id,
      exemptionCategory: "Waiver",
    });
    const badCategory = await rm.resources
      .createOrUpdateById(`${scope}/providers/Microsoft.Authorization/policyExemptions/bad`, EXEMPTION_API, {
        properties: { policyAssignmentId: assignment.id, exemptionCategory: "Forever" },
      })
      .catch((e: { code?: string }) => e);
    expect(badCategory).toMatchObject({ code: "InvalidPolicyExemptionCategory" });
    await rm.resources.deleteById(exemptionId, EXEMPTION_API);
    await expect(rm.resources.getById(exemptionId, EXEMPTION_API)).rejects.toMatchObject({ statusCode: 404 });

    await policy.policyAssignments.delete(scope, "pal-https-assign");
    await expect(policy.policyAssignments.get(scope, "pal-https-assign")).rejects.toMatchObject({
      statusCode: 404,
    });
    await policy.policyDefinitions.deleteAtManagementGroup(root, "pal-https");
    await policy.policyDefinitions.delete(subDefinition.name!);
  });

  it("assigns and exempts at resource group and resource scope", async () => {
    const [sub] = await subscriptions();
    const policy = new PolicyClient(h.azureCredential, sub!.id, h.armOptions);
    const rm = new ResourceManagementClient(h.azureCredential, sub!.id, h.armOptions);
    const undeclared = await policy.policyDefinitions
      .createOrUpdate("pal-undeclared", { policyRule: denyHttpRule })
      .catch((e: { code?: string }) => e);
    expect(undeclared).toMatchObject({ code: "InvalidPolicyParameters" });
    const definition = await policy.policyDefinitions.createOrUpdate("pal-scoped", {
      policyRule: denyHttpRule,
      parameters: { effect: { type: "String" } },
    });
    const groups: { name: string; id: string }[] = [];
    for await (const g of rm.resourceGroups.list()) groups.push({ name: g.name!, id: g.id! });
    const group = groups.find((g) => g.name.endsWith("-data"))!;
    const resources = [];
    for await (const r of rm.resources.listByResourceGroup(group.name)) resources.push(r);
    const storage = resources.find((r) => r.type === "Microsoft.Storage/storageAccounts")!;

    const missing = await policy.policyAssignments
      .create(group.id, "pal-rg", { policyDefinitionId: definition.id! })
      .catch((e: { code?: string }) => e);
    expect(missing).toMatchObject({ code: "MissingPolicyParameter" });
    const parameters = { effect: { value: "Audit" } };
    const atGroup = await policy.policyAssignments.create(group.id, "pal-rg", {
      policyDefinitionId: definition.id!,
      parameters,
    });
    const atResource = await policy.policyAssignments.create(storage.id!, "pal-res", {
      policyDefinitionId: definition.id!,
      parameters,
    });
    expect(atResource.id).toBe(`${storage.id}/providers/Microsoft.Authorization/policyAssignments/pal-res`);
    const inGroup: string[] = [];
    for await (const a of policy.policyAssignments.listForResourceGroup(group.name)) inGroup.push(a.name!);
    expect(inGroup).toEqual(expect.arrayContaining(["pal-rg", "pal-res"]));
    const onResource: string[] = [];
    for await (const a of policy.policyAssignments.listForResource(
      group.name,
      "Microsoft.Storage",
      "",
      "storageAccounts",
      storage.name!,
    )) {
      onResource.push(a.name!);
    }
    expect(onResource).toEqual(expect.arrayContaining(["pal-rg", "pal-res"]));

    const exemptionId = `${storage.id}/providers/Microsoft.Authorization/policyExemptions/pal-res-waiver`;
    await rm.resources.createOrUpdateById(exemptionId, EXEMPTION_API, {
      properties: { policyAssignmentId: atGroup.id, exemptionCategory: "Mitigated" },
    });
    const listed = await h.arm(
      "GET",
      `${storage.id}/providers/Microsoft.Authorization/policyExemptions?api-version=${EXEMPTION_API}`,
    );
    expect((listed.body.value as { name: string }[]).map((e) => e.name)).toEqual(["pal-res-waiver"]);
    const above = await rm.resources
      .createOrUpdateById(
        `/subscriptions/${sub!.id}/providers/Microsoft.Authorization/policyExemptions/too-high`,
        EXEMPTION_API,
        {
          properties: { policyAssignmentId: atGroup.id, exemptionCategory: "Waiver" },
        },
      )
      .catch((e: { code?: string }) => e);
    expect(above).toMatchObject({ code: "InvalidPolicyExemptionScope" });

    await rm.resources.deleteById(exemptionId, EXEMPTION_API);
    await policy.policyAssignments.delete(storage.id!, "pal-res");
    await policy.policyAssignments.delete(group.id, "pal-rg");
    const after: string[] = [];
    for await (const a of policy.policyAssignments.listForResourceGroup(group.name)) after.push(a.name!);
    expect(after).not.toContain("pal-rg");
  });

  it("deletes a resource group with its resources and the policy objects in it", async () => {
    const sub = (await subscriptions()).at(-2);
    const policy = new PolicyClient(h.azureCredential, sub!.id, h.armOptions);
    const rm = new ResourceManagementClient(h.azureCredential, sub!.id, h.armOptions);
    const definition = await policy.policyDefinitions.createOrUpdate("pal-in-doomed-group", {
      policyRule: denyHttpRule,
      parameters: { effect: { type: "String", defaultValue: "Audit" } },
    });
    const group = `rg-${sub!.name}-app`;
    const groupId = `/subscriptions/${sub!.id}/resourceGroups/${group}`;
    const assign = () =>
      policy.policyAssignments.create(groupId, "pal-in-doomed-group", { policyDefinitionId: definition.id! });
    await assign();
    const resources = [];
    for await (const r of rm.resources.listByResourceGroup(group)) resources.push(r);
    expect(resources.length).toBeGreaterThan(0);

    await rm.resourceGroups.beginDeleteAndWait(group);

    const groups: string[] = [];
    for await (const g of rm.resourceGroups.list()) groups.push(g.name!);
    expect(groups).not.toContain(group);
    const gone = await rm.resources
      .getById(resources[0]!.id!, "2023-01-01")
      .catch((e: { statusCode?: number }) => e);
    expect(gone).toMatchObject({ statusCode: 404 });
    const assignment = await policy.policyAssignments
      .get(groupId, "pal-in-doomed-group")
      .catch((e: { code?: string }) => e);
    expect(assignment).toMatchObject({ code: "ResourceGroupNotFound" });
    expect(await assign().catch((e: { code?: string }) => e)).toMatchObject({
      code: "ResourceGroupNotFound",
      statusCode: 404,
    });
    // Its assignment went with the group, so the definition is no longer in use.
    await policy.policyDefinitions.delete("pal-in-doomed-group");
  });

  it("retries a 429 with Retry-After", async () => {
    const mg = new ManagementGroupsAPI(h.azureCredential, h.armOptions);
    await h.post("/sandbox/control/throttle", { service: "arm", count: 1 });
    const started = Date.now();
    const g = await mg.managementGroups.get(h.cloud.azure.rootManagementGroupId);
    expect(g.displayName).toBe("Tenant Root Group");
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it("makes a disabled subscription read-only until it is enabled again", async () => {
    const sub = (await subscriptions()).at(-1);
    const policy = new PolicyClient(h.azureCredential, sub!.id, h.armOptions);
    const definition = {
      mode: "All",
      policyRule: denyHttpRule,
      parameters: { effect: { type: "String", defaultValue: "Audit" } },
    };
    await policy.policyDefinitions.createOrUpdate("pal-before-disable", definition);

    const disabled = await h.post("/sandbox/control/subscription", {
      subscription: sub!.name,
      state: "Disabled",
    });
    expect(disabled).toEqual({
      status: 200,
      body: { subscriptionId: sub!.id, displayName: sub!.name, state: "Disabled" },
    });
    expect((await h.arm("GET", `/subscriptions/${sub!.id}?api-version=2022-12-01`)).body.state).toBe(
      "Disabled",
    );
    // Reads still work; every write is refused as ARM refuses it.
    expect((await policy.policyDefinitions.get("pal-before-disable")).name).toBe("pal-before-disable");
    const write = await policy.policyDefinitions
      .createOrUpdate("pal-while-disabled", definition)
      .catch((e: { code?: string; statusCode?: number; message?: string }) => e);
    expect(write).toMatchObject({ code: "ReadOnlyDisabledSubscription", statusCode: 409 });
    expect((write as Error).message).toContain("is disabled and therefore marked as read only");
    const removal = await h.arm(
      "DELETE",
      `/subscriptions/${sub!.id}/providers/Microsoft.Authorization/policyDefinitions/pal-before-disable?api-version=2023-04-01`,
    );
    expect(removal.status).toBe(409);

    await h.post("/sandbox/control/subscription", {
      subscription: `/subscriptions/${sub!.id}`,
      state: "Enabled",
    });
    expect((await h.arm("GET", `/subscriptions/${sub!.id}?api-version=2022-12-01`)).body.state).toBe(
      "Enabled",
    );
    await policy.policyDefinitions.createOrUpdate("pal-while-disabled", definition);
    await policy.policyDefinitions.delete("pal-while-disabled");
    await policy.policyDefinitions.delete("pal-before-disable");

    expect(
      (await h.post("/sandbox/control/subscription", { subscription: "nope", state: "Disabled" })).status,
    ).toBe(404);
    expect(
      (await h.post("/sandbox/control/subscription", { subscription: sub!.id, state: "Gone" })).status,
    ).toBe(400);
  });
  it("refuses a policy exemption over the per-scope limit, as Azure does, with the limit lowered", async () => {
    const sub = (await subscriptions()).at(-2);
    const scope = `/subscriptions/${sub!.id}`;
    const policy = new PolicyClient(h.azureCredential, sub!.id, h.armOptions);
    const rm = new ResourceManagementClient(h.azureCredential, sub!.id, h.armOptions);
    const definition = await policy.policyDefinitions.createOrUpdate("pal-limit-def", {
      mode: "All",
      policyRule: denyHttpRule,
      parameters: { effect: { type: "String", defaultValue: "Deny" } },
    });
    const assignment = await policy.policyAssignments.create(scope, "pal-limit-assign", {
      policyDefinitionId: definition.id!,
    });
    const exempt = (name: string, at = scope) =>
      rm.resources.createOrUpdateById(
        `${at}/providers/Microsoft.Authorization/policyExemptions/${name}`,
        EXEMPTION_API,
        {
          properties: { policyAssignmentId: assignment.id, exemptionCategory: "Waiver" },
        },
      );

    expect(await h.post("/sandbox/control/limits", {})).toEqual({
      status: 200,
      body: { policyExemptionsPerScope: 1000, listPageSize: 100 },
    });
    expect((await h.post("/sandbox/control/limits", { policyExemptionsPerScope: 1 })).body).toEqual({
      policyExemptionsPerScope: 1,
      listPageSize: 100,
    });
    await exempt("pal-first");
    const over = await exempt("pal-second").catch(
      (e: { code?: string; statusCode?: number; message?: string }) => e,
    );
    expect(over).toMatchObject({ code: "PolicyExemptionQuotaExceeded", statusCode: 400 });
    expect((over as Error).message).toContain(
      `the scope '${scope}' already has the maximum of 1 policy exemptions`,
    );
    // Replacing an exemption does not add one; another scope has its own quota.
    await exempt("pal-first");
    const [group] = await (async () => {
      const names: string[] = [];
      for await (const g of rm.resourceGroups.list()) names.push(g.name!);
      return names;
    })();
    await exempt("pal-in-group", `${scope}/resourceGroups/${group}`);

    expect((await h.post("/sandbox/control/limits", { policyExemptionsPerScope: null })).body).toEqual({
      policyExemptionsPerScope: 1000,
      listPageSize: 100,
    });
    await exempt("pal-second");
    expect((await h.post("/sandbox/control/limits", { policyExemptionsPerScope: -1 })).status).toBe(400);
    expect((await h.post("/sandbox/control/limits", { exemptions: 5 })).status).toBe(400);

    for (const id of [
      `${scope}/providers/Microsoft.Authorization/policyExemptions/pal-first`,
      `${scope}/providers/Microsoft.Authorization/policyExemptions/pal-second`,
      `${scope}/resourceGroups/${group}/providers/Microsoft.Authorization/policyExemptions/pal-in-group`,
    ]) {
      await rm.resources.deleteById(id, EXEMPTION_API);
    }
    await policy.policyAssignments.delete(scope, "pal-limit-assign");
    await policy.policyDefinitions.delete("pal-limit-def");
  });
});

describe("Activity Log", () => {
  it("lists management events of a subscription within the time filter", async () => {
    const [sub] = await subscriptions();
    const policy = new PolicyClient(h.azureCredential, sub!.id, h.armOptions);
    await policy.policyDefinitions.createOrUpdate("pal-activity", {
      policyRule: denyHttpRule,
      parameters: { effect: { type: "String", defaultValue: "Audit" } },
    });
    const monitor = new MonitorClient(h.azureCredential, sub!.id, {
      ...h.armOptions,
      baseUri: h.cloud.azure.armEndpoint,
    });
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const list = async (filter: string) => {
      const events = [];
      for await (const e of monitor.activityLogs.list(filter)) events.push(e);
      return events.filter((e) => e.resourceId?.endsWith("/policyDefinitions/pal-activity"));
    };
    // Listed only once submitted, up to the lag after it happened.
    expect(await list(`eventTimestamp ge '${from}'`)).toEqual([]);
    await h.post("/sandbox/control/clock", { advanceSeconds: DEFAULT_ACTIVITY_LOG_LAG_MS / 1000 });
    const [write] = await list(`eventTimestamp ge '${from}'`);
    expect(write?.operationName?.value).toBe("Microsoft.Authorization/policyDefinitions/write");
    expect(write?.status?.value).toBe("Succeeded");
    const lag = write!.submissionTimestamp!.getTime() - write!.eventTimestamp!.getTime();
    expect(lag).toBeGreaterThan(0);
    expect(lag).toBeLessThanOrEqual(DEFAULT_ACTIVITY_LOG_LAG_MS);

    const later = new Date(Date.now() + 3_600_000).toISOString();
    const none = [];
    for await (const e of monitor.activityLogs.list(`eventTimestamp ge '${later}'`)) none.push(e);
    expect(none).toEqual([]);
  });
});

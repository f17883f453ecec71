import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type SandboxCloud, startSandboxCloud } from "@palisade/sandbox-cloud/start-sandbox-cloud";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAzureProvider } from "../src/cloud/azure/azure-provider";
import type { AzureCloudProvider } from "../src/cloud/cloud-provider";
import type { RetryOptions } from "../src/cloud/retry";
import { sandboxAzureConnection } from "../src/cloud/sandbox-endpoints";
import {
  assignmentId,
  EXEMPTIONS,
  largeTenant,
  MG,
  policyState,
  STATES,
} from "./support/azure-paging-tenant";
import { type RecordedList, startRecordedFake } from "./support/azure-recorded-fake";

// Every list the Azure adapter reads, read under a 429 on every page, with no row lost: on the
// sandbox, and on a fake replaying answers shaped as the ARM REST documentation shows them.

/** Retries that record the waits instead of sleeping them: one wait per 429 answered. */
function countingRetry(maxAttempts = 4) {
  const waits: number[] = [];
  const retry: RetryOptions = {
    maxAttempts,
    baseDelayMs: 1,
    maxDelayMs: 60_000,
    sleep: async (ms) => {
      waits.push(ms);
    },
  };
  return { retry, waits };
}

describe("Azure adapter paging on the sandbox, a 429 on every page", () => {
  const tenant = largeTenant();
  let dataDir: string;
  let cloud: SandboxCloud;

  async function control(path: string, body: unknown) {
    const res = await fetch(`${cloud.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as Record<string, unknown>;
  }

  async function throttleEveryPage(listPageSize: number) {
    await control("/sandbox/control/limits", { listPageSize });
    await control("/sandbox/control/throttle", {
      service: "arm",
      count: 100_000,
      retryAfterSeconds: 2,
      firstAttemptOnly: true,
    });
  }

  let throttledBefore = 0;
  /** 429s the sandbox answered since the last call; stops the throttling. */
  async function injected(): Promise<number> {
    const stopped = await control("/sandbox/control/throttle", { service: "arm", count: 0 });
    const total = Number(stopped.armThrottledSoFar);
    const since = total - throttledBefore;
    throttledBefore = total;
    return since;
  }

  function provider(retry: RetryOptions): AzureCloudProvider {
    return createAzureProvider({ ...sandboxAzureConnection(cloud), retry });
  }

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "palisade-paging-"));
    writeFileSync(join(dataDir, "sandbox-state.json"), JSON.stringify(tenant.state));
    cloud = await startSandboxCloud({ dataDir, port: 0, activity: { enabled: false } });
  });
  afterAll(async () => {
    await cloud?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("reads the whole hierarchy, Activity Log and exemptions in pages of 4, each page refused once", async () => {
    await throttleEveryPage(4);
    const { retry, waits } = countingRetry();
    const azure = provider(retry);
    try {
      const hierarchy = await azure.listHierarchy();
      const audit = await azure.readAuditEvents(undefined, { since: new Date(Date.now() - 3_600_000) });
      const exemptions = await azure.listExemptions(`/subscriptions/${tenant.firstSubscription}`);
      const checks = await azure.verify();
      const refused = await injected();
      const figures = {
        hierarchyRows: hierarchy.length,
        activityRows: audit.records.length,
        exemptionRows: exemptions.length,
        requestsRefusedWith429: refused,
        retriesAfterRetryAfter: waits.length,
      };
      console.info("sandbox, pages of 4:", JSON.stringify(figures));

      expect(hierarchy.map((e) => e.externalId).sort()).toEqual([...tenant.expected.hierarchy].sort());
      expect(new Set(audit.records.map((r) => r.id)).size).toBe(tenant.expected.activity);
      expect(audit.records).toHaveLength(tenant.expected.activity);
      expect(exemptions).toHaveLength(tenant.expected.exemptions);
      expect(
        checks.every((c) => c.ok),
        JSON.stringify(checks),
      ).toBe(true);
      // Every request was refused once and asked again after the Retry-After it was given.
      expect(waits.length).toBe(refused);
      expect(new Set(waits)).toEqual(new Set([2000]));
      // Descendants alone span 24 / 4 = 6 pages; the 7 resource groups of each of 13 subscriptions 2.
      expect(refused).toBeGreaterThan(6 + 2 * 13);
    } finally {
      azure.close();
    }
  });

  it("reads 5,000 policy states of Palisade's assignments in full, the next links POSTed, each page refused once", async () => {
    await throttleEveryPage(250);
    const { retry, waits } = countingRetry();
    const azure = provider(retry);
    try {
      const states = await azure.readCompliance({ assignmentIds: tenant.assignments });
      const refused = await injected();
      console.info(
        "sandbox, 5,000 policy states in pages of 250:",
        JSON.stringify({ rows: states.length, requestsRefusedWith429: refused, retries: waits.length }),
      );
      expect(states).toHaveLength(tenant.expected.states);
      expect(new Set(states.map((s) => `${s.resourceId}|${s.policyAssignmentId}`)).size).toBe(5000);
      expect(states.filter((s) => s.policyAssignmentId.endsWith("/not-palisade"))).toEqual([]);
      expect(states.filter((s) => !s.compliant)).toHaveLength(1000 + 667);
      // 3,000 + 2,000 states in pages of 250: 20 pages, each refused once.
      expect(refused).toBe(20);
      expect(waits).toHaveLength(20);
    } finally {
      azure.close();
    }
  });

  it("fails the read, rather than answering part of it, when a page stays throttled", async () => {
    await control("/sandbox/control/limits", { listPageSize: 4 });
    await control("/sandbox/control/throttle", {
      service: "arm",
      count: 100_000,
      retryAfterSeconds: 1,
      pathContains: "/descendants",
    });
    const { retry, waits } = countingRetry(3);
    const azure = provider(retry);
    try {
      await expect(azure.listHierarchy()).rejects.toMatchObject({ statusCode: 429 });
      expect(waits).toHaveLength(2);
    } finally {
      await injected();
      await control("/sandbox/control/limits", { listPageSize: null });
      azure.close();
    }
  });
});

describe("Azure adapter paging on recorded ARM answers, a 429 on every page", () => {
  const root = "contoso-root";
  const tenantId = randomUUID();
  const subs = [randomUUID(), randomUUID()];
  const assignment = assignmentId(subs[0]!, "pal-a");
  const paged = <T>(items: T[], size: number) =>
    Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
  // Shaped as "Management Groups - Get Descendants" documents them.
  const groups = Array.from({ length: 5 }, (_, i) => ({
    id: `${MG}/group-${i}`,
    type: "Microsoft.Management/managementGroups",
    name: `group-${i}`,
    properties: { displayName: `Group ${i}`, parent: { id: `${MG}/${root}` } },
  }));
  const descendants = [
    ...groups,
    ...subs.map((s, i) => ({
      id: `/subscriptions/${s}`,
      type: "Microsoft.Management/managementGroups/subscriptions",
      name: s,
      properties: { displayName: `Subscription ${i}`, parent: { id: `${MG}/group-${i}` } },
    })),
  ];
  const resourceGroups = (sub: string) =>
    Array.from({ length: 5 }, (_, i) => ({
      id: `/subscriptions/${sub}/resourceGroups/rg-${i}`,
      name: `rg-${i}`,
      type: "Microsoft.Resources/resourceGroups",
      location: "westeurope",
      properties: { provisioningState: "Succeeded" },
    }));
  // Shaped as "Activity Logs - List" documents an entry.
  const activity = (sub: string) =>
    Array.from({ length: 7 }, (_, i) => ({
      authorization: { action: "Microsoft.Resources/tags/write", scope: `/subscriptions/${sub}` },
      caller: "alice@contoso.example",
      channels: "Operation",
      claims: {},
      correlationId: randomUUID(),
      description: "",
      eventDataId: randomUUID(),
      eventName: { value: "EndRequest", localizedValue: "End request" },
      category: { value: "Administrative", localizedValue: "Administrative" },
      eventTimestamp: new Date(Date.now() - i * 60_000).toISOString(),
      id: `/subscriptions/${sub}/providers/Microsoft.Resources/tags/default/events/${randomUUID()}/ticks/${i}`,
      level: "Informational",
      operationId: randomUUID(),
      operationName: { value: "Microsoft.Resources/tags/write", localizedValue: "Write tags" },
      resourceProviderName: { value: "Microsoft.Resources", localizedValue: "Microsoft.Resources" },
      resourceId: `/subscriptions/${sub}/providers/Microsoft.Resources/tags/default`,
      status: { value: "Succeeded", localizedValue: "Succeeded" },
      subStatus: { value: "", localizedValue: "" },
      submissionTimestamp: new Date(Date.now() - i * 60_000 + 5000).toISOString(),
      subscriptionId: sub,
      properties: {},
    }));
  // Shaped as "Policy States - List Query Results For Management Group" documents a record.
  const states = Array.from({ length: 11 }, (_, i) => ({
    "@odata.id": null,
    "@odata.context": `https://management.azure.com${MG}/${root}/providers/Microsoft.PolicyInsights/policyStates/$metadata#latest/$entity`,
    ...policyState(subs[0]!, "rg-0", assignment, i),
  }));
  const exemptions = Array.from({ length: 6 }, (_, i) => ({
    id: `/subscriptions/${subs[0]}${EXEMPTIONS}/waiver-${i}`,
    name: `waiver-${i}`,
    type: "Microsoft.Authorization/policyExemptions",
    properties: { policyAssignmentId: assignment, exemptionCategory: "Waiver" },
  }));
  const lists: RecordedList[] = [
    { method: "GET", path: `${MG}/${root}/descendants`, pages: paged(descendants, 3) },
    ...subs.map(
      (s): RecordedList => ({
        method: "GET",
        path: `/subscriptions/${s}/resourcegroups`,
        pages: paged(resourceGroups(s), 2),
      }),
    ),
    ...subs.map(
      (s): RecordedList => ({
        method: "GET",
        path: `/subscriptions/${s}/providers/Microsoft.Insights/eventtypes/management/values`,
        pages: paged(activity(s), 3),
      }),
    ),
    {
      method: "POST",
      path: `${MG}/${root}${STATES}`,
      filter: `policyAssignmentId eq '${assignment}'`,
      nextLinkName: "@odata.nextLink",
      pages: paged(states, 4),
    },
    { method: "GET", path: `/subscriptions/${subs[0]}${EXEMPTIONS}`, pages: paged(exemptions, 4) },
  ];
  const resources = {
    [`${MG}/${root}`.toLowerCase()]: {
      id: `${MG}/${root}`,
      type: "Microsoft.Management/managementGroups",
      name: root,
      properties: { tenantId, displayName: "Tenant Root Group" },
    },
  };

  it("reads every row of every list, resuming each throttled page from its next link", async () => {
    const fake = await startRecordedFake({ tenantId, lists, resources, throttleEachRequestOnceSeconds: 3 });
    const { retry, waits } = countingRetry();
    const azure = createAzureProvider({
      tenantId,
      clientId: randomUUID(),
      credential: { kind: "secret", clientSecret: "recorded" },
      armEndpoint: fake.armEndpoint,
      authorityHost: fake.authorityHost,
      caCertPem: fake.caCertPem,
      rootManagementGroupId: root,
      consoleLinks: false,
      retry,
    });
    try {
      const hierarchy = await azure.listHierarchy();
      const audit = await azure.readAuditEvents(undefined, { since: new Date(Date.now() - 86_400_000) });
      const compliance = await azure.readCompliance({ assignmentIds: [assignment] });
      const listed = await azure.listExemptions(`/subscriptions/${subs[0]}`);
      const pages = lists.reduce((n, l) => n + l.pages.length, 0);
      console.info(
        "recorded answers:",
        JSON.stringify({
          hierarchyRows: hierarchy.length,
          activityRows: audit.records.length,
          stateRows: compliance.length,
          exemptionRows: listed.length,
          listPages: pages,
          pagesServed: fake.pagesServed,
          answeredWith429: fake.throttled,
        }),
      );
      expect(hierarchy).toHaveLength(1 + descendants.length + 2 * 5);
      expect(audit.records).toHaveLength(2 * 7);
      expect(compliance).toHaveLength(11);
      expect(listed.map((e) => e.id)).toEqual(exemptions.map((e) => e.id));
      // Each page was served once, after one 429; descendants are read twice (hierarchy, then the
      // subscriptions of the Activity Log), the root group once.
      const descendantPages = lists[0]!.pages.length;
      expect(fake.pagesServed).toBe(pages + descendantPages);
      expect(fake.throttled).toBe(pages + 1);
      expect(waits.length).toBe(fake.throttled);
      expect(new Set(waits)).toEqual(new Set([3000]));
      // The policy states' next links were POSTed, never fetched with GET.
      expect(fake.requests.filter((r) => r.startsWith("GET") && r.includes("queryResults"))).toEqual([]);
      expect(fake.requests.filter((r) => r.startsWith("POST") && r.includes("queryResults")).length).toBe(
        2 * lists.find((l) => l.method === "POST")!.pages.length,
      );
    } finally {
      azure.close();
      await fake.close();
    }
  });
});

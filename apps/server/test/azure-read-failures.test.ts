// biome-ignore-all lint/suspicious/noThenProperty: Azure policy rules are { if, then } objects.
import { ConnectorStatus } from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import { ConnectorService } from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { PolicyEventStoreService } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { compileAzureBundle } from "@palisade/policy-engine/compilers/azure/compile-azure";
import { DEFAULT_ACTIVITY_LOG_LAG_MS } from "@palisade/sandbox-cloud/azure/activity-log";
import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AzureCloudProvider } from "../src/cloud/cloud-provider";
import { connectors, hierarchyNodes } from "../src/modules/connector/connector-schema";
import { bundles, deployments } from "../src/modules/deployment/deployment-schema";
import { policyEvents } from "../src/modules/event/event-schema";
import { loadCatalogue } from "../src/modules/policy-definition/load-catalogue";
import { tryAction } from "./support/deployment-helpers";
import { finishedJob } from "./support/job-wait";
import { cloudBehaviourEngines } from "./support/test-database";
import { type Credentials, startTestServer, type TestServer } from "./support/test-server";

// The reads of an Azure connector are independent: a failing policy-state read leaves the
// Activity Log read (and the other way round), each failure is named on the connector, and a
// hierarchy read that comes back missing most scopes is refused instead of applied.

const { catalogue } = loadCatalogue();

describe.each(cloudBehaviourEngines)("Azure read failures on %s", (engine) => {
  let server: TestServer;
  let admin: Credentials;
  let tenantId: string;
  let connector: typeof connectors.$inferSelect;
  let sandboxUrl: string;
  let subscription: string;
  let bundleId: string;

  const db = () => server.palisade.database.db;

  async function control(path: string, body: unknown) {
    const res = await fetch(`${sandboxUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
  }

  const job = (jobId: string) => finishedJob(db(), jobId);

  async function fetchEvents() {
    const { jobId } = await server
      .client(PolicyEventStoreService, admin)
      .triggerFetch({ connectorId: connector.id });
    return job(jobId);
  }

  async function shown() {
    const { connector: shown } = await server
      .client(ConnectorService, admin)
      .getConnector({ id: connector.id });
    return shown!;
  }

  const stored = async () =>
    (await db().select().from(connectors).where(eq(connectors.id, connector.id)))[0]!;

  /** Bob writes a plain-HTTP storage account in corp-dev, which the guardrail denies. */
  async function deniedStorageWrite(name: string) {
    const denied = await tryAction(server.palisade.cloud.sandbox!, {
      provider: "azure",
      principal: "bob",
      action: "write",
      resource: `${subscription}/resourceGroups/rg-corp-dev-data/providers/Microsoft.Storage/storageAccounts/${name}`,
      context: { location: "westeurope", "properties.supportsHttpsTrafficOnly": "false" },
    });
    expect(denied.status).toBe(403);
  }

  /** Activity Log reads whose path holds `path` refused as Azure refuses a caller without the Reader role; `count` 0 allows them again. */
  const refuseActivityLog = (path: string, count: number) =>
    control("/sandbox/control/refuse", {
      method: "GET",
      pathContains: path,
      count,
      status: 403,
      code: "AuthorizationFailed",
      message:
        "The client does not have authorization to perform action 'Microsoft.Insights/eventtypes/values/read'.",
    });
  const ACTIVITY_LOG_PATH = "/providers/microsoft.insights/eventtypes/management/values";

  const bundleEvents = () =>
    db()
      .select()
      .from(policyEvents)
      .where(and(eq(policyEvents.tenantId, tenantId), eq(policyEvents.bundleId, bundleId)));

  const nodeCount = async () =>
    (
      await db()
        .select({ n: count() })
        .from(hierarchyNodes)
        .where(and(eq(hierarchyNodes.tenantId, tenantId), eq(hierarchyNodes.connectorId, connector.id)))
    )[0]!.n;

  beforeAll(async () => {
    server = await startTestServer(engine, { PALISADE_SANDBOX: "true", SANDBOX_ACTIVITY: "false" });
    tenantId = server.defaultTenantId;
    admin = (await server.addMember({ role: "ADMINISTRATOR" })).credentials;
    sandboxUrl = server.palisade.cloud.sandbox?.url ?? "";
    for (let i = 0; i < 400; i += 1) {
      const rows = await db().select().from(connectors).where(eq(connectors.tenantId, tenantId));
      const azure = rows.find((r) => (r.config as { provider: string }).provider === "azure");
      if (azure?.status === "CONNECTED") {
        connector = azure;
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(connector).toBeDefined();
    const [node] = await db()
      .select()
      .from(hierarchyNodes)
      .where(and(eq(hierarchyNodes.connectorId, connector.id), eq(hierarchyNodes.name, "corp-dev")));
    subscription = node!.externalId;
    // A guardrail deployed through the connector: its assignment's policy states are read.
    const [bundle] = await db()
      .insert(bundles)
      .values({
        tenantId,
        key: "AZREAD1",
        name: "HTTPS-only storage",
        policySlug: "storage-accounts-https-only",
        provider: "azure",
        mode: "PREVENT",
        status: "DEPLOYED",
        scopes: [{ externalId: subscription, name: "corp-dev" }],
        affectedResourceTypes: ["Microsoft.Storage/storageAccounts"],
        createdBy: "test",
      })
      .returning();
    bundleId = bundle!.id;
    const [deployment] = await db()
      .insert(deployments)
      .values({
        tenantId,
        bundleId: bundle!.id,
        key: "AZREAD1",
        connectorId: connector.id,
        scope: { externalId: subscription, name: "corp-dev" },
        scopeExternalId: subscription,
        mode: "PREVENT",
        status: "DEPLOYED",
        policySlug: "storage-accounts-https-only",
        name: "HTTPS-only storage",
        createdBy: "test",
      })
      .returning();
    // Deployed as the bundle engine would: its assignment denies plain-HTTP storage accounts.
    const provider = server.palisade.cloud.service.runtime.providerFor(connector) as AzureCloudProvider;
    const compiled = compileAzureBundle({
      definition: catalogue.bySlug.get("storage-accounts-https-only")!,
      definitions: catalogue.bySlug,
      parameters: {},
      mode: "PREVENT",
      key: "AZREAD1",
      name: "HTTPS-only storage",
      scopes: [{ id: subscription }],
      excludedScopes: [],
      waivers: [],
      waiverLinkBaseUrl: server.url,
      now: new Date(),
    });
    await provider.putDefinition(compiled.definition);
    const assignment = await provider.putAssignment(compiled.assignments[0]!);
    await db().update(deployments).set({ nativeId: assignment }).where(eq(deployments.id, deployment!.id));
    // Azure enforces an assignment once it has propagated; the sandbox too.
    await control("/sandbox/control/clock", { advanceSeconds: provider.policyPropagationSeconds });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("reads the Activity Log while policy states are refused, and names the failure on the connector", async () => {
    // A request the guardrail denies: the Activity Log records it.
    await deniedStorageWrite("stazread");
    // Listed by the Activity Log once submitted, as Azure lists events.
    await control("/sandbox/control/clock", { advanceSeconds: DEFAULT_ACTIVITY_LOG_LAG_MS / 1000 });
    const cursorBefore = (await stored()).eventCursor;
    await control("/sandbox/control/refuse", {
      method: "POST",
      pathContains: "/providers/microsoft.policyinsights/policystates/",
      count: 100,
      status: 403,
      code: "AuthorizationFailed",
      message:
        "The client does not have authorization to perform action 'Microsoft.PolicyInsights/policyStates/queryResults/read'.",
    });
    const failed = await fetchEvents();
    expect(failed.status).toBe("FAILED");
    expect(failed.error).toMatch(/^Policy states: Permission denied \(AuthorizationFailed\)/);
    const afterRefusal = await stored();
    // The Activity Log was read and its position stored all the same.
    expect(afterRefusal.eventCursor).not.toBe(cursorBefore);
    const prevented = await bundleEvents();
    expect(prevented.map((e) => [e.type, e.resourceExternalId?.split("/").at(-1)])).toEqual([
      ["PREVENTION", "stazread"],
    ]);
    expect(afterRefusal.readFailures).toEqual({ compliance: expect.stringContaining("AuthorizationFailed") });
    const seen = await shown();
    expect(seen.status).toBe(ConnectorStatus.CONNECTED);
    expect(seen.lastError).toMatch(/^Policy states not read: Permission denied \(AuthorizationFailed\)/);

    // Allowed again: the next fetch clears it.
    await control("/sandbox/control/refuse", {
      method: "POST",
      pathContains: "/providers/microsoft.policyinsights/policystates/",
      count: 0,
    });
    expect((await fetchEvents()).status).toBe("SUCCEEDED");
    expect((await stored()).readFailures).toEqual({});
    expect((await shown()).lastError).toBe("");
  });

  it("reads policy states while the Activity Log is refused, and keeps the Activity Log's position", async () => {
    const cursor = (await stored()).eventCursor;
    await refuseActivityLog(ACTIVITY_LOG_PATH, 100);
    try {
      const failed = await fetchEvents();
      expect(failed.error).toMatch(/^Activity Log: Permission denied \(AuthorizationFailed\)/);
      const row = await stored();
      expect(Object.keys(row.readFailures)).toEqual(["activityLog"]);
      expect(row.eventCursor).toBe(cursor);
      expect((await shown()).lastError).toMatch(/^Activity Log not read: /);
    } finally {
      await refuseActivityLog(ACTIVITY_LOG_PATH, 0);
    }
    expect((await fetchEvents()).status).toBe("SUCCEEDED");
  });

  it("holds back a non-compliance in a subscription whose Activity Log was refused until that log is read, and then records the prevention, not drift", async () => {
    await deniedStorageWrite("stunreadlog");
    // Past the Activity Log's lag: had the log been read, the denial would be listed.
    await control("/sandbox/control/clock", { advanceSeconds: DEFAULT_ACTIVITY_LOG_LAG_MS / 1000 + 10 });
    const ofAccount = async () =>
      (await bundleEvents()).filter((e) => e.resourceExternalId?.endsWith("/stunreadlog")).map((e) => e.type);
    // Only this subscription's log is refused; the others are read.
    const refusedLog = `${subscription.toLowerCase()}${ACTIVITY_LOG_PATH}`;
    await refuseActivityLog(refusedLog, 100);
    try {
      const partial = await fetchEvents();
      expect(partial.error).toMatch(/^Activity Log: Subscription corp-dev \(.+\) refused the read/);
      // The state is read, its request is not: neither drift nor anything else yet.
      expect(await ofAccount()).toEqual([]);
    } finally {
      await refuseActivityLog(refusedLog, 0);
    }
    expect((await fetchEvents()).status).toBe("SUCCEEDED");
    expect(await ofAccount()).toEqual(["PREVENTION"]);
  });

  it("refuses a hierarchy sync that would remove most scopes, keeps the stored ones and says so; a second identical read applies it", async () => {
    const before = await nodeCount();
    expect(before).toBe(9 + 7 + 14);
    const provider = server.palisade.cloud.service.runtime.providerFor(connector) as AzureCloudProvider;
    const listHierarchy = provider.listHierarchy;
    const full = await listHierarchy();
    const client = server.client(ConnectorService, admin);
    const sync = async () => job((await client.syncHierarchy({ id: connector.id })).jobId);
    try {
      // A read that came back short, as one missing a role on most of the tenant would.
      provider.listHierarchy = async () => full.slice(0, 8);
      const refused = await sync();
      expect(refused.status).toBe("FAILED");
      expect(refused.error).toMatch(
        /hierarchy sync was refused: the cloud listed 8 scope\(s\) and 22 of the 30 known/,
      );
      expect(await nodeCount()).toBe(before);
      const seen = await shown();
      expect(seen.status).toBe(ConnectorStatus.ERROR);
      expect(seen.lastError).toMatch(/The hierarchy sync was refused/);

      // A different short read is refused again.
      provider.listHierarchy = async () => full.slice(0, 9);
      expect((await sync()).status).toBe("FAILED");
      expect(await nodeCount()).toBe(before);

      // The same read twice in a row confirms the removal.
      expect((await sync()).status).toBe("SUCCEEDED");
      expect(await nodeCount()).toBe(9);
    } finally {
      provider.listHierarchy = listHierarchy;
    }
    expect((await sync()).status).toBe("SUCCEEDED");
    expect((await shown()).status).toBe(ConnectorStatus.CONNECTED);
    expect(await nodeCount()).toBe(before);
  });
});

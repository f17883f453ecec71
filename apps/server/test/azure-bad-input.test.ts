import { ConnectorStatus } from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import { ConnectorService } from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { DeploymentMode } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { PolicyEventStoreService } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { WaiverApprovalMode } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { DEFAULT_ACTIVITY_LOG_LAG_MS } from "@palisade/sandbox-cloud/azure/activity-log";
import type { SandboxCloud } from "@palisade/sandbox-cloud/start-sandbox-cloud";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAzureClients } from "../src/cloud/azure/azure-clients";
import { connectors, hierarchyNodes } from "../src/modules/connector/connector-schema";
import { deployments } from "../src/modules/deployment/deployment-schema";
import { policyEvents } from "../src/modules/event/event-schema";
import {
  advanceSandboxClock,
  bundleRow,
  deployHttpsOnly,
  deploymentRows,
  HTTPS_ONLY_SLUG,
  node,
  reconcileBundle,
  refuseUntilLifted,
  tryAction,
  waitForBundleStatus,
  waitForHierarchy,
} from "./support/deployment-helpers";
import { finishedJob } from "./support/job-wait";
import { waitFor } from "./support/poll";
import { cloudBehaviourEngines } from "./support/test-database";
import { type Credentials, startTestServer, type TestServer } from "./support/test-server";

// What a user meets when the Azure tenant changes under Palisade or refuses it: each case is named
// on the connector or on the bundle it touches, and nothing Palisade stored is lost or rewritten.

describe.each(cloudBehaviourEngines)("Azure bad input on %s", (engine) => {
  let server: TestServer;
  let admin: Credentials;
  let sandbox: SandboxCloud;
  let tenantId: string;
  let connectorId: string;
  /** HTTPS-only storage on the subscription corp-prod, and its plain-HTTP write there. */
  let corpProd: Awaited<ReturnType<typeof deployHttpsOnly>>;

  const db = () => server.palisade.database.db;

  async function control(path: string, body: unknown) {
    const res = await fetch(`${sandbox.url}/sandbox/control/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    return res.json();
  }

  const job = (jobId: string) => finishedJob(db(), jobId);

  const fetchEvents = async () =>
    job(
      (await server.client(PolicyEventStoreService, admin).triggerFetch({ connectorId: connectorId })).jobId,
    );
  const syncHierarchy = async () =>
    job((await server.client(ConnectorService, admin).syncHierarchy({ id: connectorId })).jobId);
  const shownConnector = async () =>
    (await server.client(ConnectorService, admin).getConnector({ id: connectorId })).connector!;
  const storedConnector = async () =>
    (await db().select().from(connectors).where(eq(connectors.id, connectorId)))[0]!;

  /** Everything Palisade stored that a failure must leave as it was. */
  async function storedState() {
    const events = await db()
      .select()
      .from(policyEvents)
      .where(eq(policyEvents.tenantId, tenantId))
      .orderBy(asc(policyEvents.occurredAt), asc(policyEvents.id));
    const nodes = await db()
      .select()
      .from(hierarchyNodes)
      .where(and(eq(hierarchyNodes.tenantId, tenantId), eq(hierarchyNodes.connectorId, connectorId)))
      .orderBy(asc(hierarchyNodes.id));
    const deployed = await db()
      .select()
      .from(deployments)
      .where(eq(deployments.tenantId, tenantId))
      .orderBy(asc(deployments.id));
    return { events, nodes, deployed };
  }

  /** A plain-HTTP storage write the guardrail denies, listed by the Activity Log once submitted. */
  async function deniedWrite(write: () => ReturnType<typeof tryAction>) {
    expect((await write()).status).toBe(403);
    await advanceSandboxClock(sandbox, DEFAULT_ACTIVITY_LOG_LAG_MS / 1000);
  }

  const eventsOf = (bundleId: string) =>
    db()
      .select()
      .from(policyEvents)
      .where(and(eq(policyEvents.tenantId, tenantId), eq(policyEvents.bundleId, bundleId)))
      .orderBy(asc(policyEvents.occurredAt), asc(policyEvents.id));

  /** The sandbox tenant as its administrator reaches it through ARM (the portal, the CLI). */
  function tenantAdmin() {
    return createAzureClients({
      tenantId: sandbox.azure.tenantId,
      clientId: sandbox.azure.clientId,
      credential: { kind: "secret", clientSecret: sandbox.azure.clientSecret },
      armEndpoint: sandbox.azure.armEndpoint,
      authorityHost: sandbox.azure.authorityHost,
      caCertPem: sandbox.azure.caCertPem,
    });
  }

  beforeAll(async () => {
    server = await startTestServer(engine, {
      PALISADE_SANDBOX: "true",
      SANDBOX_ACTIVITY: "false",
      SANDBOX_AZURE_PROPAGATION_SECONDS: "2",
    });
    sandbox = server.palisade.cloud.sandbox!;
    tenantId = server.defaultTenantId;
    admin = (await server.addMember({ role: "ADMINISTRATOR", name: "Ada Admin" })).credentials;
    await waitForHierarchy(db(), tenantId);
    connectorId = (await node(db(), tenantId, "corp-prod")).connectorId;
    await waitFor("the Azure connector", async () => (await storedConnector()).status === "CONNECTED");
    corpProd = await deployHttpsOnly(server, admin, {
      subscriptionName: "corp-prod",
      name: "HTTPS-only storage (corp-prod)",
      storageAccount: "stbadinput1",
      location: "westeurope",
    });
    await deniedWrite(corpProd.writePlain);
    expect((await fetchEvents()).status).toBe("SUCCEEDED");
    expect((await eventsOf(corpProd.bundleId)).map((e) => e.type)).toEqual(["PREVENTION"]);
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("an assignment removed out of band: reconcile names it on the bundle and restores it, once", async () => {
    const [deployment] = await deploymentRows(db(), corpProd.bundleId);
    const assignmentId = deployment!.nativeId!;
    const before = await eventsOf(corpProd.bundleId);
    const azure = tenantAdmin();
    try {
      const subscriptionId = corpProd.subscription.externalId.split("/")[2]!;
      await azure
        .clientsFor(subscriptionId)
        .policy.policyAssignments.delete(corpProd.subscription.externalId, assignmentId.split("/").at(-1)!);

      await reconcileBundle(server, corpProd.bundleId);
      const events = await eventsOf(corpProd.bundleId);
      expect(events.slice(0, before.length)).toEqual(before);
      const missing = events.filter((e) => e.type === "MISSING");
      expect(missing).toHaveLength(1);
      const reason = (missing[0]!.audits as { raw: { reason: string } }[])[0]!.raw.reason;
      expect(reason).toMatch(/was removed from .* outside Palisade; Palisade redeployed it/);
      expect(reason).toContain(assignmentId);

      // Restored under the same id: Azure holds one assignment of the guardrail, not two.
      const [restored] = await deploymentRows(db(), corpProd.bundleId);
      expect(restored!.nativeId).toBe(assignmentId);
      const assigned = [];
      for await (const a of azure.clientsFor(subscriptionId).policy.policyAssignments.list()) {
        if (a.displayName === deployment!.name || a.name === assignmentId.split("/").at(-1)) assigned.push(a);
      }
      expect(assigned).toHaveLength(1);
      await advanceSandboxClock(sandbox, 3);
      await waitForBundleStatus(db(), corpProd.bundleId, ["DEPLOYED"]);
      expect((await corpProd.writePlain()).status).toBe(403);
    } finally {
      azure.close();
    }
  });

  it("a deleted management group: the sync drops it alone, its bundle names the missing scope, its events stay", async () => {
    const online = await node(db(), tenantId, "Online");
    const { bundle } = await server.client(DeploymentManagerService, admin).createBundle({
      name: "HTTPS-only storage (online)",
      policySlug: HTTPS_ONLY_SLUG,
      scopes: [{ externalId: online.externalId, connectorId }],
      mode: DeploymentMode.PREVENT,
      isVisible: true,
      waiverSettings: { approvalMode: WaiverApprovalMode.AUTO },
    });
    const bundleId = bundle?.entity?.id ?? "";
    await advanceSandboxClock(sandbox, 3);
    await waitForBundleStatus(db(), bundleId, ["DEPLOYED"]);
    const onlineProd = await node(db(), tenantId, "online-prod");
    await deniedWrite(() =>
      tryAction(sandbox, {
        provider: "azure",
        principal: "bob",
        action: "write",
        resource: `${onlineProd.externalId}/resourceGroups/rg-online-prod-data/providers/Microsoft.Storage/storageAccounts/stbadinput2`,
        context: { location: "eastus", "properties.supportsHttpsTrafficOnly": false },
      }),
    );
    expect((await fetchEvents()).status).toBe("SUCCEEDED");
    const events = await eventsOf(bundleId);
    expect(events.map((e) => e.type)).toEqual(["PREVENTION"]);
    const before = await storedState();

    // Its subscriptions moved to landing-zones, then the group deleted, as Azure requires.
    await control("management-group", { delete: "online", moveChildrenTo: "landing-zones" });
    expect((await syncHierarchy()).status).toBe("SUCCEEDED");
    const after = await storedState();
    expect(after.nodes.map((n) => n.name).sort()).toEqual(
      before.nodes
        .map((n) => n.name)
        .filter((name) => name !== "Online")
        .sort(),
    );
    const landingZones = await node(db(), tenantId, "Landing zones");
    expect((await node(db(), tenantId, "online-prod")).parentExternalId).toBe(landingZones.externalId);

    await reconcileBundle(server, bundleId);
    const [deployment] = await deploymentRows(db(), bundleId);
    expect(deployment!.status).toBe("FAILED");
    expect(deployment!.errorCode).toBe("CLOUD_INVALID_SCOPE");
    expect(deployment!.errorMessage).toContain(`Online (${online.externalId})`);
    expect(deployment!.errorMessage).toMatch(
      /does not exist in the cloud any more \(ManagementGroupNotFound\)/,
    );
    expect((await bundleRow(db(), bundleId))!.status).toBe("FAILED");
    // The denied write stays in Events, as it was.
    expect((await eventsOf(bundleId)).filter((e) => e.type === "PREVENTION")).toEqual(events);
  });

  it("a subscription the app cannot read: the others' Activity Log is read, the connector names it and the role", async () => {
    const onlineDev = await node(db(), tenantId, "online-dev");
    const subscriptionId = onlineDev.externalId.split("/")[2]!;
    const lift = await refuseUntilLifted(sandbox, "GET", onlineDev.externalId, {
      status: 403,
      code: "AuthorizationFailed",
      message: `The client '${sandbox.azure.clientId}' does not have authorization to perform action 'Microsoft.Insights/eventtypes/values/read' over scope '${onlineDev.externalId}' or the scope is invalid.`,
    });
    const cursor = (await storedConnector()).eventCursor;
    const before = await eventsOf(corpProd.bundleId);
    try {
      await deniedWrite(corpProd.writePlain);
      const fetched = await fetchEvents();
      expect(fetched.status).toBe("FAILED");
      // corp-prod's Activity Log was read: its new denial is in Events.
      const events = await eventsOf(corpProd.bundleId);
      expect(events.slice(0, before.length)).toEqual(before);
      expect(events.slice(before.length).map((e) => e.type)).toEqual(["PREVENTION"]);
      const shown = await shownConnector();
      expect(shown.status).toBe(ConnectorStatus.CONNECTED);
      expect(shown.lastError).toContain(`Subscription online-dev (${subscriptionId})`);
      expect(shown.lastError).toMatch(/Reader role/);
      expect(shown.lastError).toContain("Microsoft.Insights/eventtypes/values/read");
      // The position stays, so online-dev's records are read once it can be.
      expect((await storedConnector()).eventCursor).toBe(cursor);

      // Its resource groups cannot be listed either: the sync names it and keeps the stored scopes.
      const nodes = (await storedState()).nodes;
      expect((await syncHierarchy()).status).toBe("FAILED");
      const failed = await shownConnector();
      expect(failed.status).toBe(ConnectorStatus.ERROR);
      expect(failed.lastError).toContain(
        `Permission denied (AuthorizationFailed): Subscription online-dev (${subscriptionId})`,
      );
      expect((await storedState()).nodes).toEqual(nodes);
    } finally {
      await lift();
    }
    expect((await fetchEvents()).status).toBe("SUCCEEDED");
    expect((await syncHierarchy()).status).toBe("SUCCEEDED");
    expect((await shownConnector()).status).toBe(ConnectorStatus.CONNECTED);
    expect((await shownConnector()).lastError).toBe("");
    expect((await storedConnector()).eventCursor).not.toBe(cursor);
  });

  it("an expired client secret: the connector is in ERROR saying what to do, nothing is lost, reads resume with a new secret", async () => {
    const before = await storedState();
    await control("client-secret", { expire: true });
    // Entra ID's tokens outlive the secret until they expire (an hour); a new provider signs in anew.
    server.palisade.cloud.service.runtime.forget(connectorId);

    const fetched = await fetchEvents();
    expect(fetched.status).toBe("FAILED");
    expect(fetched.error).toMatch(/Client secret expired/);
    let shown = await shownConnector();
    expect(shown.status).toBe(ConnectorStatus.ERROR);
    expect(shown.lastError).toMatch(
      /^Client secret expired: create a new secret .*and update the connector .*\(AADSTS7000222\)\.$/,
    );
    const synced = await syncHierarchy();
    expect(synced.status).toBe("FAILED");
    shown = await shownConnector();
    expect(shown.status).toBe(ConnectorStatus.ERROR);
    expect(shown.lastError).toMatch(/^Client secret expired/);
    expect(await storedState()).toEqual(before);

    // The bundle's reconcile names it; the assignment in Azure stays as it was.
    await reconcileBundle(server, corpProd.bundleId);
    const [failed] = await deploymentRows(db(), corpProd.bundleId);
    expect(failed).toMatchObject({
      status: "FAILED",
      errorCode: "DEPLOYMENT_SYNC_FAILED",
      nativeId: before.deployed.find((d) => d.id === failed!.id)!.nativeId,
    });
    expect(failed!.errorMessage).toMatch(/^Palisade could not sign in to the cloud: Client secret expired/);
    expect((await corpProd.writePlain()).status).toBe(403);

    // A new secret: the sandbox connector uses it, and the next read brings the connector back.
    await control("client-secret", { renew: true });
    await deniedWrite(corpProd.writePlain);
    expect((await fetchEvents()).status).toBe("SUCCEEDED");
    shown = await shownConnector();
    expect(shown.status).toBe(ConnectorStatus.CONNECTED);
    expect(shown.lastError).toBe("");
    const events = await eventsOf(corpProd.bundleId);
    const stored = before.events.filter((e) => e.bundleId === corpProd.bundleId);
    expect(events.slice(0, stored.length)).toEqual(stored);
    // Both writes denied meanwhile, read once the connector signs in again.
    expect(events.slice(stored.length).map((e) => e.type)).toEqual(["PREVENTION", "PREVENTION"]);
    await reconcileBundle(server, corpProd.bundleId);
    expect(await deploymentRows(db(), corpProd.bundleId)).toMatchObject([
      { status: "DEPLOYED", errorCode: null, nativeId: failed!.nativeId },
    ]);
  });
});

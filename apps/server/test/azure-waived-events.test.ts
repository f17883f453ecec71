import { DeploymentMode } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { EventType } from "@palisade/api/gen/palisade/event/v1/event_pb";
import { PolicyEventStoreService } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { WaiverApprovalMode } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { WaiverService } from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import { DEFAULT_ACTIVITY_LOG_LAG_MS } from "@palisade/sandbox-cloud/azure/activity-log";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waivers } from "../src/modules/waiver/waiver-schema";
import {
  advanceSandboxClock,
  expectDeployed,
  HTTPS_ONLY_SLUG,
  node,
  tryAction,
} from "./support/deployment-helpers";
import { succeededJob } from "./support/job-wait";
import { waitFor } from "./support/poll";
import { ADMIN_AND_REQUESTER, startSandboxServer } from "./support/sandbox-server";
import { engines } from "./support/test-database";
import type { Credentials, TestServer } from "./support/test-server";

// The README walkthrough on Azure: a guardrail denies a write, the requester gets a waiver from
// /req, the same write goes through, and Events shows both: the prevention and the waived write.
describe.each(engines)("an Azure guardrail's prevention and waived write in Events, on %s", (engine) => {
  let server: TestServer;
  let admin: Credentials;
  let requester: Credentials;

  beforeAll(async () => {
    ({
      server,
      members: { admin, requester },
    } = await startSandboxServer({
      engine,
      members: ADMIN_AND_REQUESTER,
      scopes: ["Landing zones", "online-prod", "sandbox-01", "rg-sandbox-01-data"],
    }));
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  const db = () => server.palisade.database.db;
  const sandbox = () => server.palisade.cloud.sandbox!;

  async function guardrail(name: string, scopeName: string) {
    const scope = await node(db(), server.defaultTenantId, scopeName);
    const { bundle } = await server.client(DeploymentManagerService, admin).createBundle({
      name,
      policySlug: HTTPS_ONLY_SLUG,
      scopes: [{ externalId: scope.externalId, connectorId: scope.connectorId }],
      mode: DeploymentMode.PREVENT,
      isVisible: true,
      waiverSettings: { approvalMode: WaiverApprovalMode.AUTO },
    });
    const id = bundle?.entity?.id ?? "";
    await expectDeployed(db(), id, 30_000);
    return { id, key: bundle?.key ?? "" };
  }

  async function storageIn(subscriptionName: string, account: string) {
    const subscription = await node(db(), server.defaultTenantId, subscriptionName);
    const resource = `${subscription.externalId}/resourceGroups/rg-${subscriptionName}-data/providers/Microsoft.Storage/storageAccounts/${account}`;
    return () =>
      tryAction(sandbox(), {
        provider: "azure",
        principal: "alice",
        action: "write",
        resource,
        context: { location: "westeurope", "properties.supportsHttpsTrafficOnly": false },
      });
  }

  async function waive(key: string, scopeName: string) {
    const scope = await node(db(), server.defaultTenantId, scopeName);
    const { waiver } = await server.client(WaiverService, requester).create({
      key: key.toLowerCase(),
      duration: 3_600n,
      comment: "Migrating a legacy client that needs HTTP",
      target: { case: "scopeExternalId", value: scope.externalId },
    });
    await waitFor("the waiver to reach the cloud", async () => {
      const [row] = await db()
        .select()
        .from(waivers)
        .where(eq(waivers.id, waiver?.entity?.id ?? ""));
      return row?.deploymentStatus === "ACTIVE";
    });
  }

  async function fetchEventsNow() {
    const { jobId } = await server.client(PolicyEventStoreService, admin).triggerFetch({});
    await succeededJob(db(), jobId);
  }

  async function eventsOf(bundleId: string) {
    const { items } = await server
      .client(PolicyEventStoreService, admin)
      .listEvents({ filter: { policyId: bundleId, type: [EventType.PREVENTION, EventType.WAIVED] } });
    return items
      .map((e) => ({ type: EventType[e.type], resource: e.resource?.name }))
      .sort((a, b) => a.type.localeCompare(b.type));
  }

  it("shows both for a guardrail on a management group and for one on a subscription", async () => {
    // On the management group `landing-zones`, waived for one of its subscriptions.
    const onGroup = await guardrail("HTTPS-only storage (landing zones)", "Landing zones");
    const writeInGroup = await storageIn("online-prod", "stwalkthrough1");
    const denied = await writeInGroup();
    expect(denied.status).toBe(403);
    expect(denied.text).toContain(onGroup.key);
    await waive(onGroup.key, "online-prod");
    expect((await writeInGroup()).status).toBe(200);

    // On a subscription, waived for its data resource group.
    const onSubscription = await guardrail("HTTPS-only storage (sandbox-01)", "sandbox-01");
    const writeInSubscription = await storageIn("sandbox-01", "stwalkthrough2");
    expect((await writeInSubscription()).status).toBe(403);
    await waive(onSubscription.key, "rg-sandbox-01-data");
    expect((await writeInSubscription()).status).toBe(200);

    // "Fetch events now" once Azure has submitted the records to the Activity Log.
    await advanceSandboxClock(sandbox(), DEFAULT_ACTIVITY_LOG_LAG_MS / 1000);
    await fetchEventsNow();
    expect(await eventsOf(onGroup.id)).toEqual([
      { type: "PREVENTION", resource: "stwalkthrough1" },
      { type: "WAIVED", resource: "stwalkthrough1" },
    ]);
    expect(await eventsOf(onSubscription.id)).toEqual([
      { type: "PREVENTION", resource: "stwalkthrough2" },
      { type: "WAIVED", resource: "stwalkthrough2" },
    ]);

    // Fetched again, the records in the re-read window are not stored twice.
    await fetchEventsNow();
    expect(await eventsOf(onGroup.id)).toHaveLength(2);
    expect(await eventsOf(onSubscription.id)).toHaveLength(2);
  }, 180_000);
});

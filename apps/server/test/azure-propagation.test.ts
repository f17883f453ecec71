import { timestampDate } from "@bufbuild/protobuf/wkt";
import { DeploymentMode, DeploymentStatus } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import {
  WaiverApprovalMode,
  WaiverDeploymentStatus,
  WaiverStatus,
} from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { WaiverService } from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import type { SandboxCloud } from "@palisade/sandbox-cloud/start-sandbox-cloud";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundles, deployments } from "../src/modules/deployment/deployment-schema";
import { settlePropagation } from "../src/modules/deployment/propagation-settle";
import {
  bundleRow,
  deploymentRows,
  expectDeployed,
  HTTPS_ONLY_SLUG,
  node,
  reconcileBundle,
  tryAction,
  waitForBundleStatus,
} from "./support/deployment-helpers";
import { waitFor } from "./support/poll";
import { ADMIN_AND_REQUESTER, startSandboxServer } from "./support/sandbox-server";
import { cloudBehaviourEngines } from "./support/test-database";
import type { Credentials, TestServer } from "./support/test-server";

// Azure applies a new assignment "around five minutes" after it is written, and honours a new
// exemption only once the same evaluation has run:
// https://learn.microsoft.com/en-us/azure/governance/policy/how-to/get-compliance-data#evaluation-triggers
// The sandbox models that delay (here a few seconds); Palisade shows PROPAGATING until then.
const PROPAGATION_SECONDS = 6;

describe.each(cloudBehaviourEngines)("Azure propagation, on %s", (engine) => {
  let server: TestServer;
  let admin: Credentials;
  let requester: Credentials;
  let sandbox: SandboxCloud;
  const db = () => server.palisade.database.db;

  beforeAll(async () => {
    ({
      server,
      sandbox,
      members: { admin, requester },
    } = await startSandboxServer({
      engine,
      members: ADMIN_AND_REQUESTER,
      scopes: ["corp-prod", "online-prod"],
    }));
    const response = await fetch(`${sandbox.url}/sandbox/control/propagation`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ seconds: PROPAGATION_SECONDS }),
    });
    expect(await response.json()).toEqual({ seconds: PROPAGATION_SECONDS });
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
  });

  async function deploy(subscriptionName: string, storageAccount: string) {
    const subscription = await node(db(), server.defaultTenantId, subscriptionName);
    const { bundle } = await server.client(DeploymentManagerService, admin).createBundle({
      name: `HTTPS-only storage (${subscriptionName})`,
      policySlug: HTTPS_ONLY_SLUG,
      scopes: [{ externalId: subscription.externalId, connectorId: subscription.connectorId }],
      mode: DeploymentMode.PREVENT,
      isVisible: true,
      waiverSettings: { approvalMode: WaiverApprovalMode.AUTO },
    });
    const resource = `${subscription.externalId}/resourceGroups/rg-${subscriptionName}-data/providers/Microsoft.Storage/storageAccounts/${storageAccount}`;
    let attempt = 0;
    const writePlain = () =>
      tryAction(sandbox, {
        provider: "azure",
        principal: "alice",
        action: "write",
        resource: `${resource}${attempt++}`,
        context: { location: "westeurope", "properties.supportsHttpsTrafficOnly": false },
      });
    return { bundleId: bundle?.entity?.id ?? "", key: bundle?.key ?? "", subscription, writePlain };
  }

  it("shows a new Azure deployment PROPAGATING until the cloud enforces it, then DEPLOYED", async () => {
    const { bundleId, writePlain } = await deploy("corp-prod", `stprop${engine}`);
    const propagating = await waitForBundleStatus(db(), bundleId, ["PROPAGATING", "DEPLOYED", "FAILED"]);
    expect(propagating.status).toBe("PROPAGATING");
    const endsAt = propagating.propagationEndsAt?.getTime() ?? 0;
    expect(endsAt - Date.now()).toBeGreaterThan(0);
    expect(endsAt - Date.now()).toBeLessThanOrEqual(PROPAGATION_SECONDS * 1_000);
    const [deployment] = await deploymentRows(db(), bundleId);
    expect(deployment?.status).toBe("PROPAGATING");
    expect(deployment?.nativeId).toContain("/providers/Microsoft.Authorization/policyAssignments/");

    const { bundle } = await server
      .client(DeploymentManagerService, admin)
      .getBundle({ lookup: { case: "id", value: bundleId } });
    expect(bundle?.bundle?.status).toBe(DeploymentStatus.PROPAGATING);
    expect(timestampDate(bundle!.bundle!.propagationEndsAt!).getTime()).toBe(endsAt);
    const listed = await server.client(DeploymentManagerService, admin).listDeployments({
      bundleId,
    });
    expect(listed.items.map((d) => d.deployment?.status)).toEqual([DeploymentStatus.PROPAGATING]);

    // Well before the end, Azure has not applied the assignment yet: the write goes through.
    expect(Date.now()).toBeLessThan(endsAt - 1_500);
    expect((await writePlain()).status).toBe(200);

    const deployed = await waitForBundleStatus(db(), bundleId, ["DEPLOYED", "FAILED"]);
    expect(deployed.status).toBe("DEPLOYED");
    expect(deployed.propagationEndsAt).toBeNull();
    expect(Date.now()).toBeGreaterThanOrEqual(endsAt);
    expect((await deploymentRows(db(), bundleId)).map((d) => d.status)).toEqual(["DEPLOYED"]);
    // Palisade says DEPLOYED only once the cloud enforces it.
    const denied = await writePlain();
    expect(denied.status).toBe(403);
    expect(denied.text).toContain("RequestDisallowedByPolicy");

    // A reconcile rewrites the same assignment: Azure keeps enforcing it, and it stays DEPLOYED.
    await reconcileBundle(server, bundleId);
    expect((await bundleRow(db(), bundleId))?.status).toBe("DEPLOYED");
    expect((await deploymentRows(db(), bundleId)).map((d) => d.status)).toEqual(["DEPLOYED"]);
    expect((await writePlain()).status).toBe(403);
  }, 90_000);

  it("shows a waiver PROPAGATING, still denied in the cloud, until the exemption takes effect; then ACTIVE", async () => {
    const { bundleId, key, subscription, writePlain } = await deploy("online-prod", `stwaive${engine}`);
    await expectDeployed(db(), bundleId, 30_000);
    expect((await writePlain()).status).toBe(403);

    const created = await server.client(WaiverService, requester).create({
      key,
      duration: 3_600n,
      comment: "migrating a legacy client",
      target: { case: "scopeExternalId", value: subscription.externalId },
    });
    const id = created.waiver?.entity?.id ?? "";
    const reader = server.client(WaiverService, admin);
    const readWaiver = async () =>
      (await reader.list({ filter: { key } })).items.find((w) => w.entity?.id === id);
    const propagating = await waitFor("the waiver to reach the cloud", async () => {
      const waiver = await readWaiver();
      return waiver && waiver.status !== WaiverStatus.PENDING ? waiver : undefined;
    });
    expect(propagating.status).toBe(WaiverStatus.PROPAGATING);
    expect(propagating.deploymentStatus).toBe(WaiverDeploymentStatus.PROPAGATING);
    const endsAt = timestampDate(propagating.propagationEndsAt!).getTime();
    expect(endsAt - Date.now()).toBeLessThanOrEqual(PROPAGATION_SECONDS * 1_000);
    // Listed under its own status, and counted as such.
    const filtered = await reader.list({ filter: { key, status: [WaiverStatus.PROPAGATING] } });
    expect(filtered.items.map((w) => w.entity?.id)).toEqual([id]);
    expect(await reader.summary({ filter: { keys: [key] } })).toMatchObject({ propagating: 1, active: 0 });

    // The exemption is in the cloud but not honoured yet: the write is still refused.
    expect(Date.now()).toBeLessThan(endsAt - 1_500);
    expect((await writePlain()).status).toBe(403);

    const active = await waitFor("the waiver to be honoured", async () => {
      const waiver = await readWaiver();
      return waiver?.status === WaiverStatus.ACTIVE ? waiver : undefined;
    });
    expect(active.deploymentStatus).toBe(WaiverDeploymentStatus.ACTIVE);
    expect(active.propagationEndsAt).toBeUndefined();
    expect(Date.now()).toBeGreaterThanOrEqual(endsAt);
    expect((await writePlain()).status).toBe(200);
    expect(await reader.summary({ filter: { keys: [key] } })).toMatchObject({ propagating: 0, active: 1 });
  }, 90_000);

  it("settles a propagation that ended while no job ran, and a second run changes nothing", async () => {
    const { bundleId } = await deploy("corp-prod", `stsettle${engine}`);
    await waitForBundleStatus(db(), bundleId, ["PROPAGATING"]);
    // As after a restart: the stored end has passed and no job is due any more.
    const past = new Date(Date.now() - 1_000);
    await db().update(deployments).set({ propagationEndsAt: past }).where(eq(deployments.bundleId, bundleId));
    await db().update(bundles).set({ propagationEndsAt: past }).where(eq(bundles.id, bundleId));
    await settlePropagation(db());
    expect((await bundleRow(db(), bundleId))?.status).toBe("DEPLOYED");
    expect((await deploymentRows(db(), bundleId)).map((d) => d.status)).toEqual(["DEPLOYED"]);
    expect(await settlePropagation(db())).toBe(0);
  }, 90_000);
});

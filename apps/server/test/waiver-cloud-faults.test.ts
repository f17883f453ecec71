import { ProductErrorCode } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { WaiverDeploymentStatus, WaiverStatus } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { WaiverService } from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import type { SandboxCloud } from "@palisade/sandbox-cloud/start-sandbox-cloud";
import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AzureCloudProvider } from "../src/cloud/cloud-provider";
import { enqueueReconcile } from "../src/jobs/reconcile-job";
import { auditLog } from "../src/modules/audit/audit-schema";
import { connectors } from "../src/modules/connector/connector-schema";
import { bundleRow, deployHttpsOnly, reconcileBundle, refuseInSandbox } from "./support/deployment-helpers";
import { waitFor } from "./support/poll";
import { ADMIN_AND_REQUESTER, startSandboxServer } from "./support/sandbox-server";
import { engines } from "./support/test-database";
import type { Credentials, TestServer } from "./support/test-server";

describe.each(engines)("a cloud that refuses to remove a waiver, on %s", (engine) => {
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
      scopes: ["corp-prod", "corp-dev"],
    }));
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("records WAIVER_DELETION_FAILED on the waiver and the bundle, and clears it once the cloud lets go", async () => {
    const { bundleId, key, subscription, writePlain } = await deployHttpsOnly(server, admin, {
      subscriptionName: "corp-prod",
      name: "HTTPS-only storage",
      storageAccount: `stlocked${engine}`,
      location: "westeurope",
    });
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
    await waitFor("the waiver in the cloud", async () => {
      const waiver = await readWaiver();
      return (
        waiver?.status === WaiverStatus.ACTIVE && waiver.deploymentStatus === WaiverDeploymentStatus.ACTIVE
      );
    });
    expect((await writePlain()).status).toBe(200);

    // A lock on the subscription: every removal of an exemption is refused.
    await refuseInSandbox(sandbox, "DELETE", "/providers/microsoft.authorization/policyexemptions/", 1_000);
    await reader.cancel({ target: { case: "id", value: id } });
    const stuck = await waitFor("the refused removal to be recorded", async () => {
      const waiver = await readWaiver();
      return waiver?.deploymentStatus === WaiverDeploymentStatus.FAILED ? waiver : undefined;
    });
    expect(stuck.status).toBe(WaiverStatus.CANCELLED);
    expect(stuck.errorCode).toBe(ProductErrorCode.WAIVER_DELETION_FAILED);
    expect((await bundleRow(db(), bundleId))?.errorCodes).toContain("WAIVER_DELETION_FAILED");
    // What the service reports is what the cloud does: the exemption still lets the write through.
    expect((await writePlain()).status).toBe(200);

    // The lock is lifted; the next reconcile removes the exemption and clears the failure.
    await refuseInSandbox(sandbox, "DELETE", "/providers/microsoft.authorization/policyexemptions/", 0);
    await enqueueReconcile(server.palisade.jobs, { tenantId: server.defaultTenantId, bundleId });
    const cleared = await waitFor("the exemption to leave the cloud", async () => {
      const waiver = await readWaiver();
      return waiver?.deploymentStatus !== WaiverDeploymentStatus.FAILED ? waiver : undefined;
    });
    expect(cleared.errorCode).toBe(ProductErrorCode.UNSPECIFIED);
    expect((await bundleRow(db(), bundleId))?.errorCodes).not.toContain("WAIVER_DELETION_FAILED");
    expect((await writePlain()).status).toBe(403);
  }, 150_000);

  async function azureProvider(): Promise<AzureCloudProvider> {
    const [row] = await db()
      .select()
      .from(connectors)
      .where(
        and(eq(connectors.tenantId, server.defaultTenantId), eq(connectors.name, "Sandbox Azure tenant")),
      );
    if (!row) throw new Error("no sandbox Azure connector");
    const provider = server.palisade.cloud.service.runtime.providerFor(row);
    if (provider.provider !== "azure") throw new Error("not an Azure connector");
    return provider;
  }

  async function auditOf(action: string) {
    return db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.tenantId, server.defaultTenantId), eq(auditLog.action, action)))
      .orderBy(desc(auditLog.createdAt));
  }

  it("reconcile raises WAIVERS_RECONCILIATION_FAILED for a waiver the cloud lost and for one Palisade never made", async () => {
    const { bundleId, key, subscription, writePlain } = await deployHttpsOnly(server, admin, {
      subscriptionName: "corp-dev",
      name: "HTTPS-only storage (dev)",
      storageAccount: `stdrift${engine}`,
      location: "northeurope",
    });
    const created = await server.client(WaiverService, requester).create({
      key,
      duration: 3_600n,
      comment: "drift check",
      target: { case: "scopeExternalId", value: subscription.externalId },
    });
    const waiverId = created.waiver?.entity?.id ?? "";
    const reader = server.client(WaiverService, admin);
    await waitFor("the waiver in the cloud", async () => {
      const waiver = (await reader.list({ filter: { key } })).items.find((w) => w.entity?.id === waiverId);
      return waiver?.deploymentStatus === WaiverDeploymentStatus.ACTIVE;
    });
    expect((await writePlain()).status).toBe(200);

    const azure = await azureProvider();
    const ours = (await azure.listExemptions(subscription.externalId)).filter((e) =>
      e.id.toLowerCase().includes(key.toLowerCase()),
    );
    expect(ours).toHaveLength(1);
    const exemption = ours[0];
    if (!exemption) throw new Error("no exemption");

    // Someone deletes the waiver's exemption in the portal: the ACTIVE waiver is missing from the cloud.
    await azure.removeExemption(exemption.id);
    expect((await writePlain()).status).toBe(403);
    await reconcileBundle(server, bundleId);
    expect((await bundleRow(db(), bundleId))?.errorCodes).toContain("WAIVERS_RECONCILIATION_FAILED");
    const [missing] = await auditOf("Reconcile.WaiverMissingFromCloud");
    expect(missing?.targetId).toBe(waiverId);
    expect(missing?.after).toMatchObject({ code: "WAIVERS_RECONCILIATION_FAILED", policyKey: key });
    // The reconcile put it back: the waiver propagates again, then is honoured again.
    await waitFor("the restored waiver to be honoured", async () => {
      const waiver = (await reader.list({ filter: { key } })).items.find((w) => w.entity?.id === waiverId);
      return waiver?.status === WaiverStatus.ACTIVE;
    });
    expect((await writePlain()).status).toBe(200);
    await reconcileBundle(server, bundleId);
    expect((await bundleRow(db(), bundleId))?.errorCodes).not.toContain("WAIVERS_RECONCILIATION_FAILED");

    // Someone exempts the subscription from Palisade's assignment by hand: a waiver Palisade does not know.
    const stranger = `${subscription.externalId}/providers/Microsoft.Authorization/policyExemptions/hand-made-${engine}`;
    await azure.putExemption({
      id: stranger,
      name: `hand-made-${engine}`,
      type: "Microsoft.Authorization/policyExemptions",
      properties: {
        policyAssignmentId: exemption.policyAssignmentId,
        exemptionCategory: "Waiver",
        expiresOn: new Date(Date.now() + 86_400_000).toISOString(),
        displayName: "Exempted by hand",
        description: "Not made by Palisade",
        metadata: { palisade: { key: "", waiverId: "" } },
      },
    });
    await reconcileBundle(server, bundleId);
    expect((await bundleRow(db(), bundleId))?.errorCodes).toContain("WAIVERS_RECONCILIATION_FAILED");
    const unknown = await auditOf("Reconcile.UnknownWaiverInCloud");
    expect(unknown).toHaveLength(1);
    expect(unknown[0]?.targetId).toBe(bundleId);
    expect(unknown[0]?.after).toMatchObject({
      code: "WAIVERS_RECONCILIATION_FAILED",
      exemptionId: stranger,
    });
    // Reported once while it lasts, not at every reconcile.
    await reconcileBundle(server, bundleId);
    expect(await auditOf("Reconcile.UnknownWaiverInCloud")).toHaveLength(1);
    // The code travels with the bundle to the API.
    const { bundle: read } = await server.client(DeploymentManagerService, admin).getBundle({
      lookup: { case: "id", value: bundleId },
    });
    expect(read?.bundle?.errorCodes).toContain(ProductErrorCode.WAIVERS_RECONCILIATION_FAILED);

    await azure.removeExemption(stranger);
    await reconcileBundle(server, bundleId);
    expect((await bundleRow(db(), bundleId))?.errorCodes).not.toContain("WAIVERS_RECONCILIATION_FAILED");
  }, 180_000);
});

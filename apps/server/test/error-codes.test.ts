import { Code, type ConnectError } from "@connectrpc/connect";
import { ErrorDetailSchema, ProductErrorCode } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { DeploymentMode, DeploymentStatus } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import {
  WaiverApprovalMode,
  WaiverDeploymentStatus,
  WaiverStatus,
} from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { WaiverService } from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import type { SandboxCloud } from "@palisade/sandbox-cloud/start-sandbox-cloud";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorOf } from "./support/call-error";
import {
  deleteResourceGroup,
  deployHttpsOnly,
  deploymentRows,
  HTTPS_ONLY_SLUG,
  limitExemptionsPerScope,
  node,
  reconcileBundle,
  refuseUntilLifted,
  setSubscriptionState,
  waitForBundleStatus,
} from "./support/deployment-helpers";
import { waitFor } from "./support/poll";
import { ADMIN_AND_REQUESTER, startSandboxServer } from "./support/sandbox-server";
import { requestShapeEngines } from "./support/test-database";
import type { Credentials, TestServer } from "./support/test-server";

// Each product error code (spec section 8) driven the way a user meets it, through the RPC client,
// a real server, the sandbox cloud and the official SDK adapters: the RPC error carries the code in
// its ErrorDetail, and where the failure is kept (deployment, bundle, waiver) the stored state
// read back through the API shows it.

/** The product error codes an RPC failure carries. */
const productCodes = (error: ConnectError) => error.findDetails(ErrorDetailSchema).map((d) => d.code);

/** ARM's answer to a write under a scope with a read-only lock. */
const writeLock = (scope: string) => ({
  status: 409,
  code: "ScopeLocked",
  message: `The scope '${scope}' cannot perform write operation because following scope(s) are locked: '${scope}'. Please remove the lock and try again.`,
});

/** ARM's answer when the connector's role does not grant the action at the scope. */
const notAuthorized = (action: string, scope: string) => ({
  status: 403,
  code: "AuthorizationFailed",
  message: `The client 'palisade-connector' does not have authorization to perform action '${action}' over scope '${scope}' or the scope is invalid.`,
});

const policyObjects = (scope: string, collection: string) =>
  `${scope}/providers/microsoft.authorization/${collection}/`.toLowerCase();

const SCOPES = [
  "corp-prod",
  "corp-dev",
  "online-prod",
  "online-dev",
  "rg-online-dev-app",
  "rg-online-dev-data",
  "platform-identity",
  "sandbox-01",
  "rg-sandbox-01-app",
  "sandbox-bob",
];

describe.each(requestShapeEngines)("product error codes, end to end, on %s", (engine) => {
  let server: TestServer;
  let admin: Credentials;
  let requester: Credentials;
  let sandbox: SandboxCloud;

  const db = () => server.palisade.database.db;
  const manager = () => server.client(DeploymentManagerService, admin);

  beforeAll(async () => {
    ({
      server,
      sandbox,
      members: { admin, requester },
    } = await startSandboxServer({ engine, members: ADMIN_AND_REQUESTER, scopes: SCOPES }));
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
  });

  /** The bundle as its page reads it. */
  async function readBundle(bundleId: string) {
    const { bundle } = await manager().getBundle({ lookup: { case: "id", value: bundleId } });
    if (!bundle?.bundle) throw new Error(`no bundle ${bundleId}`);
    return bundle.bundle;
  }

  async function readDeployment(id: string) {
    const { deployment } = await manager().get({ lookup: { case: "id", value: id } });
    if (!deployment?.deployment) throw new Error(`no deployment ${id}`);
    return deployment.deployment;
  }

  const waivers = () => server.client(WaiverService, requester);
  const reviewer = () => server.client(WaiverService, admin);

  async function readWaiver(key: string, id: string) {
    const { items } = await reviewer().list({ filter: { key } });
    return items.find((w) => w.entity?.id === id);
  }

  /** The waiver once the cloud honours it: placed, then propagated (Azure). */
  async function activeWaiver(key: string, id: string) {
    return waitFor("the waiver to be honoured", async () => {
      const waiver = await readWaiver(key, id);
      return waiver?.status !== WaiverStatus.PROPAGATING ? waiver : undefined;
    });
  }

  /** Requests a waiver of the guardrail and waits for the refusal to be recorded. */
  async function requestRefusedWaiver(
    guardrail: { key: string; bundleId: string },
    target: { case: "scopeExternalId" | "resourceExternalId"; value: string },
  ) {
    const { waiver } = await waivers().create({
      key: guardrail.key,
      duration: 3_600n,
      comment: "migrating a legacy client",
      target,
    });
    const id = waiver?.entity?.id ?? "";
    // Recorded on the waiver, then summed up on its bundle.
    const failed = await waitFor("the refusal to be recorded", async () => {
      const read = await readWaiver(guardrail.key, id);
      if (read?.deploymentStatus !== WaiverDeploymentStatus.FAILED) return undefined;
      const bundle = await readBundle(guardrail.bundleId);
      return bundle.errorCodes.includes(read.errorCode) ? read : undefined;
    });
    return { id, failed };
  }

  describe("a mode change waits for the cloud and fails with the code of its refusal", () => {
    it.each([
      {
        name: "CREATE_POLICY_PROVIDER_FAILED",
        code: ProductErrorCode.CREATE_POLICY_PROVIDER_FAILED,
        subscriptionName: "corp-prod",
        location: "westeurope",
        what: "the connector may not write policy definitions",
        message: "Creating the policy in the cloud failed",
        fault: (subscription: string) =>
          refuseUntilLifted(
            sandbox,
            "PUT",
            policyObjects(subscription, "policyDefinitions"),
            notAuthorized("Microsoft.Authorization/policyDefinitions/write", subscription),
          ),
      },
      {
        name: "CREATE_RESOURCE_FAILED",
        code: ProductErrorCode.CREATE_RESOURCE_FAILED,
        subscriptionName: "corp-dev",
        location: "northeurope",
        what: "a read-only lock refuses the policy assignment",
        message: "Applying the policy on",
        fault: (subscription: string) =>
          refuseUntilLifted(
            sandbox,
            "PUT",
            policyObjects(subscription, "policyAssignments"),
            writeLock(subscription),
          ),
      },
      {
        name: "CLOUD_SUBSCRIPTION_DISABLED",
        code: ProductErrorCode.CLOUD_SUBSCRIPTION_DISABLED,
        subscriptionName: "online-prod",
        location: "eastus",
        what: "the subscription is disabled",
        message: "is disabled or read-only (ReadOnlyDisabledSubscription); re-enable it",
        fault: async (subscription: string) => {
          await setSubscriptionState(sandbox, subscription, "Disabled");
          return () => setSubscriptionState(sandbox, subscription, "Enabled");
        },
      },
    ])(
      "$name ($what): on the deployment and the bundle until the cloud accepts the change",
      async ({ name, code, subscriptionName, location, message, fault }) => {
        const { bundleId, key, subscription, writePlain } = await deployHttpsOnly(server, admin, {
          subscriptionName,
          name: `HTTPS-only storage (${name})`,
          storageAccount: `stmode${engine}`,
          location,
        });
        const { deployment } = await manager().get({ lookup: { case: "key", value: key } });
        const deploymentId = deployment?.deployment?.entity?.id ?? "";
        expect((await writePlain()).status).toBe(403);

        const lift = await fault(subscription.externalId);
        const refused = await errorOf(manager().update({ id: deploymentId, mode: DeploymentMode.ALERT }));
        expect(refused.code).toBe(Code.FailedPrecondition);
        expect(productCodes(refused)).toEqual([code]);
        expect(refused.rawMessage).toContain(message);
        expect(await readDeployment(deploymentId)).toMatchObject({
          status: DeploymentStatus.FAILED,
          errorCode: code,
        });
        const failed = await readBundle(bundleId);
        expect(failed.status).toBe(DeploymentStatus.FAILED);
        expect(failed.errorCodes).toEqual([code]);
        // What the service reports is what the cloud does: the guardrail still denies.
        expect((await writePlain()).status).toBe(403);

        await lift();
        const { deployment: changed } = await manager().update({
          id: deploymentId,
          mode: DeploymentMode.ALERT,
        });
        // The changed assignment is in Azure, which applies it minutes later.
        expect(changed).toMatchObject({
          mode: DeploymentMode.ALERT,
          status: DeploymentStatus.PROPAGATING,
          errorCode: ProductErrorCode.UNSPECIFIED,
        });
        await waitForBundleStatus(db(), bundleId, ["DEPLOYED"]);
        expect((await readBundle(bundleId)).errorCodes).toEqual([]);
        // ALERT reports instead of denying.
        expect((await writePlain()).status).toBe(200);
      },
      150_000,
    );
  });

  it("DELETE_RESOURCE_FAILED: a scope dropped from a bundle whose assignment the cloud will not remove stays reported until it is removed", async () => {
    const { bundleId, writePlain } = await deployHttpsOnly(server, admin, {
      subscriptionName: "online-dev",
      name: "HTTPS-only storage (two groups)",
      storageAccount: `stleave${engine}`,
      location: "eastus2",
      resourceGroups: ["app", "data"],
    });
    expect((await writePlain()).status).toBe(403);
    const app = await node(db(), server.defaultTenantId, "rg-online-dev-app");
    const data = await node(db(), server.defaultTenantId, "rg-online-dev-data");
    const liftLock = await refuseUntilLifted(
      sandbox,
      "DELETE",
      policyObjects(data.externalId, "policyAssignments"),
    );

    await manager().updateBundle({
      id: bundleId,
      scopes: [{ externalId: app.externalId, connectorId: app.connectorId }],
    });
    const stuck = await waitFor("the refused removal to be recorded", async () => {
      const bundle = await readBundle(bundleId);
      return bundle.errorCodes.includes(ProductErrorCode.DELETE_RESOURCE_FAILED) ? bundle : undefined;
    });
    // The group's removal is still under way, so the bundle is not shown as deployed.
    expect(stuck.status).toBe(DeploymentStatus.PENDING);
    expect(stuck.errorCodes).toEqual([ProductErrorCode.DELETE_RESOURCE_FAILED]);
    const leaving = (await deploymentRows(db(), bundleId)).find((d) => d.scopeExternalId === data.externalId);
    expect((await readDeployment(leaving?.id ?? "")).errorCode).toBe(ProductErrorCode.DELETE_RESOURCE_FAILED);
    // The assignment is still in the cloud: the group is still guarded.
    expect((await writePlain()).status).toBe(403);

    await liftLock();
    await reconcileBundle(server, bundleId);
    await waitForBundleStatus(db(), bundleId, ["DEPLOYED"]);
    const removed = await readBundle(bundleId);
    expect(removed.status).toBe(DeploymentStatus.DEPLOYED);
    expect(removed.errorCodes).toEqual([]);
    expect((await writePlain()).status).toBe(200);
  }, 150_000);

  it("CLOUD_INVALID_SCOPE: a bundle over subscriptions with no common home is refused before it is stored", async () => {
    const corp = await node(db(), server.defaultTenantId, "corp-prod");
    const online = await node(db(), server.defaultTenantId, "online-prod");
    const name = "HTTPS-only storage (two subscriptions)";
    const refused = await errorOf(
      manager().createBundle({
        name,
        policySlug: HTTPS_ONLY_SLUG,
        scopes: [corp, online].map((s) => ({ externalId: s.externalId, connectorId: s.connectorId })),
        mode: DeploymentMode.PREVENT,
        isVisible: true,
      }),
    );
    expect(refused.code).toBe(Code.InvalidArgument);
    expect(productCodes(refused)).toEqual([ProductErrorCode.CLOUD_INVALID_SCOPE]);
    expect(refused.rawMessage).toBe(
      "The scopes are in different subscriptions or management groups, and Azure needs one place above all of them to keep the policy's definition. Choose scopes within one subscription, or the management group that holds them, or create a bundle for each subscription.",
    );
    expect((await manager().listBundle({ filter: { search: name } })).items).toEqual([]);
  });

  it("CLOUD_INVALID_SCOPE: a resource group deleted in the cloud fails the bundle's next change", async () => {
    const { bundleId, key } = await deployHttpsOnly(server, admin, {
      subscriptionName: "sandbox-01",
      name: "HTTPS-only storage (deleted group)",
      storageAccount: `stgone${engine}`,
      location: "westus2",
      resourceGroups: ["app"],
    });
    const group = await node(db(), server.defaultTenantId, "rg-sandbox-01-app");
    await deleteResourceGroup(sandbox, group.externalId);
    const { deployment } = await manager().get({ lookup: { case: "key", value: key } });
    const deploymentId = deployment?.deployment?.entity?.id ?? "";

    const refused = await errorOf(manager().update({ id: deploymentId, mode: DeploymentMode.ALERT }));
    expect(refused.code).toBe(Code.FailedPrecondition);
    expect(productCodes(refused)).toEqual([ProductErrorCode.CLOUD_INVALID_SCOPE]);
    expect(refused.rawMessage).toContain("does not exist in the cloud any more (ResourceGroupNotFound)");
    expect(await readDeployment(deploymentId)).toMatchObject({
      status: DeploymentStatus.FAILED,
      errorCode: ProductErrorCode.CLOUD_INVALID_SCOPE,
    });
    const failed = await readBundle(bundleId);
    expect(failed.status).toBe(DeploymentStatus.FAILED);
    expect(failed.errorCodes).toEqual([ProductErrorCode.CLOUD_INVALID_SCOPE]);
  }, 120_000);

  describe("waivers on a guardrail of platform-identity", () => {
    let guardrail: Awaited<ReturnType<typeof deployHttpsOnly>>;

    beforeAll(async () => {
      guardrail = await deployHttpsOnly(server, admin, {
        subscriptionName: "platform-identity",
        name: "HTTPS-only storage (identity)",
        storageAccount: `stwaiver${engine}`,
        location: "westeurope",
      });
    }, 60_000);

    /** Cancels the waiver and waits until the guardrail denies again. */
    async function cancel(id: string) {
      await reviewer().cancel({ target: { case: "id", value: id } });
      await waitFor("the guardrail to deny again", async () => (await guardrail.writePlain()).status === 403);
    }

    it("WAIVER_CREATION_FAILED: a waiver a lock keeps out of the cloud is not shown active, and is placed once the lock is lifted", async () => {
      const { subscription, bundleId, writePlain } = guardrail;
      const liftLock = await refuseUntilLifted(
        sandbox,
        "PUT",
        policyObjects(subscription.externalId, "policyExemptions"),
        writeLock(subscription.externalId),
      );
      const { id, failed } = await requestRefusedWaiver(guardrail, {
        case: "scopeExternalId",
        value: subscription.externalId,
      });
      expect(failed.errorCode).toBe(ProductErrorCode.WAIVER_CREATION_FAILED);
      expect(failed.status).toBe(WaiverStatus.PENDING);
      expect((await readBundle(bundleId)).errorCodes).toEqual([ProductErrorCode.WAIVER_CREATION_FAILED]);
      expect((await writePlain()).status).toBe(403);

      await liftLock();
      await reconcileBundle(server, bundleId);
      expect(await activeWaiver(guardrail.key, id)).toMatchObject({
        status: WaiverStatus.ACTIVE,
        deploymentStatus: WaiverDeploymentStatus.ACTIVE,
        errorCode: ProductErrorCode.UNSPECIFIED,
      });
      expect((await readBundle(bundleId)).errorCodes).toEqual([]);
      expect((await writePlain()).status).toBe(200);
      await cancel(id);
    }, 120_000);

    it("EXEMPTIONS_LIMIT_EXCEEDED: a waiver on a scope that holds as many exemptions as Azure allows is not shown active, and is placed once there is room", async () => {
      const { subscription, bundleId, writePlain } = guardrail;
      // Azure allows 1,000 exemptions per scope; the sandbox lowers it so the scope is already full.
      await limitExemptionsPerScope(sandbox, 0);
      const { id, failed } = await requestRefusedWaiver(guardrail, {
        case: "scopeExternalId",
        value: subscription.externalId,
      });
      expect(failed.errorCode).toBe(ProductErrorCode.EXEMPTIONS_LIMIT_EXCEEDED);
      expect(failed.status).toBe(WaiverStatus.PENDING);
      const refused = await readBundle(bundleId);
      expect(refused.status).toBe(DeploymentStatus.DEPLOYED);
      expect(refused.errorCodes).toEqual([ProductErrorCode.EXEMPTIONS_LIMIT_EXCEEDED]);
      expect((await writePlain()).status).toBe(403);

      await limitExemptionsPerScope(sandbox, null);
      await reconcileBundle(server, bundleId);
      expect(await activeWaiver(guardrail.key, id)).toMatchObject({
        status: WaiverStatus.ACTIVE,
        deploymentStatus: WaiverDeploymentStatus.ACTIVE,
        errorCode: ProductErrorCode.UNSPECIFIED,
      });
      expect((await readBundle(bundleId)).errorCodes).toEqual([]);
      expect((await writePlain()).status).toBe(200);
      await cancel(id);
    }, 120_000);

    it("WAIVER_CREATION_FAILED_ON_NON_EXISTING_RESOURCE: a waiver for a storage account that does not exist", async () => {
      const { subscription, bundleId } = guardrail;
      const missing = `${subscription.externalId}/resourceGroups/rg-platform-identity-data/providers/Microsoft.Storage/storageAccounts/stnevermade${engine}`;
      const { id, failed } = await requestRefusedWaiver(guardrail, {
        case: "resourceExternalId",
        value: missing,
      });
      expect(failed.errorCode).toBe(ProductErrorCode.WAIVER_CREATION_FAILED_ON_NON_EXISTING_RESOURCE);
      expect(failed.status).toBe(WaiverStatus.PENDING);
      expect((await readBundle(bundleId)).errorCodes).toEqual([
        ProductErrorCode.WAIVER_CREATION_FAILED_ON_NON_EXISTING_RESOURCE,
      ]);
      await cancel(id);
    }, 120_000);

    it("WAIVER_CREATION_FAILED_FORBIDDEN_SCOPE: a scope the guardrail is not deployed to is refused, and one the connector may not exempt is recorded", async () => {
      const { subscription, key, bundleId } = guardrail;
      const elsewhere = await node(db(), server.defaultTenantId, "sandbox-01");
      const stored = (await reviewer().list({ filter: { key } })).items.length;
      const outside = await errorOf(
        waivers().create({
          key,
          duration: 3_600n,
          comment: "migrating a legacy client",
          target: { case: "scopeExternalId", value: elsewhere.externalId },
        }),
      );
      expect(outside.code).toBe(Code.InvalidArgument);
      expect(productCodes(outside)).toEqual([ProductErrorCode.WAIVER_CREATION_FAILED_FORBIDDEN_SCOPE]);
      expect(outside.rawMessage).toBe(
        `Subscription ${elsewhere.externalId.split("/").at(-1)} is not within any scope policy ${key} is deployed to.`,
      );
      expect((await reviewer().list({ filter: { key } })).items).toHaveLength(stored);

      const liftRefusal = await refuseUntilLifted(
        sandbox,
        "PUT",
        policyObjects(subscription.externalId, "policyExemptions"),
        notAuthorized("Microsoft.Authorization/policyExemptions/write", subscription.externalId),
      );
      const { id, failed } = await requestRefusedWaiver(guardrail, {
        case: "scopeExternalId",
        value: subscription.externalId,
      });
      expect(failed.errorCode).toBe(ProductErrorCode.WAIVER_CREATION_FAILED_FORBIDDEN_SCOPE);
      expect((await readBundle(bundleId)).errorCodes).toEqual([
        ProductErrorCode.WAIVER_CREATION_FAILED_FORBIDDEN_SCOPE,
      ]);
      await liftRefusal();
      await cancel(id);
    }, 120_000);

    it("PARSE_WAIVER_SCOPE_FAILED: a scope or resource that is not a cloud id is refused at its field", async () => {
      const { key } = guardrail;
      const before = (await reviewer().list({ filter: { key } })).items.length;
      for (const [target, field] of [
        [{ case: "scopeExternalId", value: "platform-identity" }, "scope_external_id"],
        [{ case: "resourceExternalId", value: "stwaiverdata" }, "resource_external_id"],
      ] as const) {
        const refused = await errorOf(
          waivers().create({ key, duration: 3_600n, comment: "migrating a legacy client", target }),
        );
        expect(refused.code, field).toBe(Code.InvalidArgument);
        const [detail] = refused.findDetails(ErrorDetailSchema);
        expect(detail?.code, field).toBe(ProductErrorCode.PARSE_WAIVER_SCOPE_FAILED);
        expect(detail?.fieldViolations.map((v) => v.field)).toEqual([field]);
      }
      expect((await reviewer().list({ filter: { key } })).items).toHaveLength(before);
    });
  });

  it("PARSE_WAIVER_SCOPE_FAILED: one IAM user waived on a guardrail over every IAM user is recorded on the waiver", async () => {
    const account = await node(db(), server.defaultTenantId, "sandbox-bob");
    const { bundle } = await manager().createBundle({
      name: "No IAM users",
      policySlug: "deny-iam-user-creation",
      scopes: [{ externalId: account.externalId, connectorId: account.connectorId }],
      mode: DeploymentMode.PREVENT,
      isVisible: true,
      waiverSettings: { approvalMode: WaiverApprovalMode.AUTO },
    });
    const guardrail = { key: bundle?.key ?? "", bundleId: bundle?.entity?.id ?? "" };
    expect((await waitForBundleStatus(db(), guardrail.bundleId, ["DEPLOYED", "FAILED"])).status).toBe(
      "DEPLOYED",
    );
    // The SCP denies iam:CreateUser on arn:aws:iam::*:user/*; it cannot leave one user out.
    const { failed } = await requestRefusedWaiver(guardrail, {
      case: "resourceExternalId",
      value: `arn:aws:iam::${account.externalId}:user/ci-bot`,
    });
    expect(failed.errorCode).toBe(ProductErrorCode.PARSE_WAIVER_SCOPE_FAILED);
    expect(failed.status).toBe(WaiverStatus.PENDING);
    const read = await readBundle(guardrail.bundleId);
    expect(read.status).toBe(DeploymentStatus.DEPLOYED);
    expect(read.errorCodes).toEqual([ProductErrorCode.PARSE_WAIVER_SCOPE_FAILED]);
  }, 120_000);
});

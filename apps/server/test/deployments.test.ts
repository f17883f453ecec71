import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import {
  CloudProvider,
  ErrorDetailSchema,
  ProductErrorCode,
} from "@palisade/api/gen/palisade/common/v1/common_pb";
import { DeploymentMode, DeploymentStatus } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { PolicyService } from "@palisade/api/gen/palisade/policy/v1/policy_pb";
import { PolicyDefinitionState } from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_pb";
import type { SandboxCloud } from "@palisade/sandbox-cloud/start-sandbox-cloud";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AwsCloudProvider } from "../src/cloud/cloud-provider";
import { enqueueBundleSync } from "../src/jobs/bundle-sync-job";
import { auditLog } from "../src/modules/audit/audit-schema";
import { connectors } from "../src/modules/connector/connector-schema";
import { policyEvents } from "../src/modules/event/event-schema";
import { waivers } from "../src/modules/waiver/waiver-schema";
import { errorOf } from "./support/call-error";
import {
  advanceSandboxClock,
  deploymentRows,
  expectDeployed,
  node,
  scpsNamed,
  tryAction,
  waitForBundleStatus,
} from "./support/deployment-helpers";
import { waitFor } from "./support/poll";
import { startSandboxServer } from "./support/sandbox-server";
import { engines } from "./support/test-database";
import type { Credentials, TestServer } from "./support/test-server";

const S3_SLUG = "protect-s3-account-public-access-block";
const AZURE_SLUG = "storage-accounts-https-only";

describe.each(engines)("deployments on %s", (engine) => {
  let server: TestServer;
  let admin: Credentials;
  let viewer: Credentials;
  let sandbox: SandboxCloud;
  let tenantId: string;

  const db = () => server.palisade.database.db;
  const manager = (credentials = admin) => server.client(DeploymentManagerService, credentials);
  const scope = async (name: string) => {
    const row = await node(db(), tenantId, name);
    return { externalId: row.externalId, connectorId: row.connectorId };
  };
  async function awsProvider(): Promise<AwsCloudProvider> {
    const [row] = await db()
      .select()
      .from(connectors)
      .where(and(eq(connectors.tenantId, tenantId), eq(connectors.name, "Sandbox AWS organisation")));
    if (!row) throw new Error("no sandbox AWS connector");
    const provider = server.palisade.cloud.service.runtime.providerFor(row);
    if (provider.provider !== "aws") throw new Error("not an AWS connector");
    return provider;
  }
  const tryS3 = (account: string) =>
    tryAction(sandbox, {
      provider: "aws",
      account,
      principal: "user/alice",
      action: "s3:PutAccountPublicAccessBlock",
      resource: "*",
    });

  beforeAll(async () => {
    ({
      server,
      sandbox,
      tenantId,
      members: { admin, viewer },
    } = await startSandboxServer({
      engine,
      members: { admin: { role: "ADMINISTRATOR", name: "Ada Admin" }, viewer: "VIEWER" },
    }));
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("refuses invalid bundles with a message naming the field", async () => {
    const ou = await scope("Workloads");
    const subscription = await scope("corp-prod");
    const valid = { name: "S3 guard", policySlug: S3_SLUG, scopes: [ou], mode: DeploymentMode.PREVENT };
    // Each problem also travels as a field violation, so the deploy form shows it beside its field.
    const cases: [string, Record<string, unknown>, RegExp, string][] = [
      ["empty name", { name: "  " }, /^.*name: required/, "name"],
      ["long name", { name: "x".repeat(121) }, /name: must be at most 120 characters/, "name"],
      [
        "unknown policy",
        { policySlug: "no-such-policy" },
        /policy_slug: no policy definition/,
        "policy_slug",
      ],
      ["no mode", { mode: DeploymentMode.UNSPECIFIED }, /mode: choose PREVENT or ALERT/, "mode"],
      ["no scope", { scopes: [] }, /scopes: choose at least one/, "scopes"],
      [
        "unknown scope",
        { scopes: [{ externalId: "ou-zzzz-zzzzzzzz" }] },
        /scopes\[0\]: ou-zzzz-zzzzzzzz is not in any connected hierarchy/,
        "scopes[0]",
      ],
      [
        "scope of the other cloud",
        { scopes: [subscription] },
        /scopes\[0\]: .* is an AZURE scope/,
        "scopes[0]",
      ],
      ["scope twice", { scopes: [ou, ou] }, /listed twice/, "scopes"],
      ["unknown parameter", { parameters: { nope: 1 } }, /parameters.nope/, "parameters.nope"],
      [
        "wrong parameter type",
        { parameters: { exempt_principal_arns: "not-a-list" } },
        /parameters.exempt_principal_arns/,
        "parameters.exempt_principal_arns",
      ],
      [
        "long namespace",
        { namespace: "n".repeat(65) },
        /namespace: must be at most 64 characters/,
        "namespace",
      ],
    ];
    for (const [what, change, message, field] of cases) {
      const error = await errorOf(manager().createBundle({ ...valid, ...change }));
      expect(error.code, what).toBe(Code.InvalidArgument);
      expect(error.rawMessage, what).toMatch(message);
      const violations = error.findDetails(ErrorDetailSchema)[0]?.fieldViolations ?? [];
      expect(
        violations.map((v) => v.field),
        what,
      ).toContain(field);
    }
    // Refused before anything is stored: the SCP would exceed what AWS Organizations accepts.
    const arns = Array.from({ length: 240 }, (_, i) => `arn:aws:iam::*:role/break-glass-role-number-${i}`);
    const tooLong = await errorOf(
      manager().createBundle({ ...valid, parameters: { exempt_principal_arns: arns } }),
    );
    expect(tooLong.code).toBe(Code.InvalidArgument);
    expect(tooLong.rawMessage).toMatch(/10240-character limit/);
    expect(tooLong.findDetails(ErrorDetailSchema)[0]?.code).toBe(ProductErrorCode.POLICY_LIMIT_EXCEEDED);
    expect((await manager().listBundle({})).items).toEqual([]);

    const forbidden = await errorOf(manager(viewer).createBundle(valid));
    expect(forbidden.code).toBe(Code.PermissionDenied);
  });

  let awsBundleId = "";
  let awsKey = "";

  it("deploys an AWS bundle in PREVENT mode to an OU; a user below it is denied by the SCP carrying the key", async () => {
    const ou = await scope("Workloads");
    const { bundle } = await manager().createBundle({
      name: "Keep S3 public access blocked",
      policySlug: S3_SLUG,
      scopes: [ou],
      mode: DeploymentMode.PREVENT,
      isVisible: true,
      namespace: "platform",
    });
    expect(bundle?.status).toBe(DeploymentStatus.PENDING);
    expect(bundle?.key).toMatch(/^[0-9A-HJKMNP-TV-Z]{7}$/);
    expect(bundle?.feedbackMessage).toContain(bundle?.key);
    expect(bundle?.provider).toBe(CloudProvider.AWS);
    awsBundleId = bundle?.entity?.id ?? "";
    awsKey = bundle?.key ?? "";

    await waitForBundleStatus(db(), awsBundleId, ["DEPLOYED", "FAILED"]);
    const { bundle: fetched } = await manager().getBundle({ lookup: { case: "id", value: awsBundleId } });
    expect(fetched?.bundle?.status).toBe(DeploymentStatus.DEPLOYED);
    const [deployment] = await deploymentRows(db(), awsBundleId);
    expect(deployment?.status).toBe("DEPLOYED");
    expect(deployment?.nativeId).toMatch(/^p-/);

    const denied = await tryS3("payments-prod");
    expect(denied.status).toBe(403);
    expect(denied.body.error?.Message).toContain(`service_control_policy/${deployment?.nativeId}`);
    // The OU's guardrails share packed SCPs; the denying statement's Sid carries the key.
    expect(denied.body.policy?.sid).toContain(awsKey);
    const named = await scpsNamed(sandbox, `palisade-${ou.externalId}-0`);
    expect(named.map((p) => p.id)).toEqual([deployment?.nativeId]);

    // Outside the OU nothing changes.
    expect((await tryS3("sandbox-bob")).status).toBe(200);

    // The public waiver page finds the key in any case, and nothing more.
    const lookup = await server.client(PolicyService).getBundleByKey({ key: ` ${awsKey.toLowerCase()} ` });
    expect(lookup).toMatchObject({ key: awsKey, policySlug: S3_SLUG });
    expect(lookup.feedbackMessage).toContain(`/req?k=${awsKey}`);

    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.targetId, awsBundleId), eq(auditLog.action, "DeploymentManagerService.CreateBundle")),
      );
    expect(audit?.actorName).toBe("Ada Admin");
  });

  it("lists, filters and summarises bundles and deployments", async () => {
    const { items, pagination } = await manager(viewer).listBundle({
      filter: { search: awsKey.toLowerCase(), namespaces: ["platform"], cloudProviders: [CloudProvider.AWS] },
    });
    expect(items.map((i) => i.bundle?.key)).toEqual([awsKey]);
    expect(pagination?.totalItems).toBe(1);
    const none = await manager(viewer).listBundle({
      filter: { cloudProviders: [CloudProvider.AZURE], search: awsKey },
    });
    expect(none.items).toEqual([]);
    const ou = await scope("Workloads");
    const byScope = await manager(viewer).listBundle({ filter: { scopes: [ou.externalId] } });
    expect(byScope.items.map((i) => i.bundle?.key)).toContain(awsKey);
    const byMode = await manager(viewer).listBundle({ filter: { modes: [DeploymentMode.ALERT] } });
    expect(byMode.items.map((i) => i.bundle?.key)).not.toContain(awsKey);

    expect(await manager(viewer).listNamespaces({})).toMatchObject({ namespaces: ["platform"] });
    const summary = await manager(viewer).summaryBundle({ namespace: "platform" });
    expect(summary).toMatchObject({ total: 1, prevent: 1, alert: 0 });
    const namespace = await manager(viewer).summaryNamespace({ namespace: "platform" });
    expect(namespace).toMatchObject({
      prevents: { policyCount: 1, eventCount: 0 },
      alerts: { policyCount: 0, eventCount: 0 },
      waivers: { total: 0, active: 0 },
    });

    const deployments = await manager(viewer).listDeployments({ scopes: [ou.externalId] });
    expect(deployments.items.map((d) => d.deployment?.key)).toContain(awsKey);
    const byKey = await manager(viewer).get({ lookup: { case: "key", value: awsKey } });
    expect(byKey.deployment?.deployment?.bundleId).toBe(awsBundleId);
    const valid = await manager(viewer).listValidDeploymentsByBundleIds({ bundleId: [awsBundleId] });
    expect(valid.deploymentIds).toEqual([byKey.deployment?.deployment?.entity?.id]);

    const policies = await server.client(PolicyService, viewer).getPolicies({ filter: { slugs: [S3_SLUG] } });
    expect(policies.items[0]).toMatchObject({
      state: PolicyDefinitionState.PREVENT,
      bundlesCount: 1,
      preventBundlesCount: 1,
    });
    expect(policies.items[0]?.definition?.tree).toBeUndefined();
  });

  it("answers NotFound for another tenant's bundle", async () => {
    const other = await server.createTenant("Other");
    const stranger = (await server.addMember({ role: "ADMINISTRATOR", tenantId: other })).credentials;
    const client = manager(stranger);
    const calls = [
      () => client.getBundle({ lookup: { case: "id", value: awsBundleId } }),
      () => client.getBundle({ lookup: { case: "key", value: awsKey } }),
      () => client.get({ lookup: { case: "key", value: awsKey } }),
      () => client.deleteBundle({ id: awsBundleId }),
      () => client.updateBundle({ id: awsBundleId, namespace: "stolen" }),
      () => client.triggerFetch({ id: awsBundleId }),
    ];
    for (const call of calls) {
      expect((await errorOf(call())).code).toBe(Code.NotFound);
    }
    expect((await client.listBundle({})).items).toEqual([]);
  });

  it("restores an SCP deleted behind Palisade's back and reports it missing", async () => {
    const provider = await awsProvider();
    const [before] = await deploymentRows(db(), awsBundleId);
    await provider.removeScp(before?.nativeId ?? "");
    expect((await tryS3("payments-prod")).status).toBe(200);

    const { jobId } = await manager().sync({});
    expect(jobId).not.toBe("");
    const name = `palisade-${(await scope("Workloads")).externalId}-0`;
    const restored = await waitFor("the SCP to be restored", async () => {
      const found = await scpsNamed(sandbox, name);
      return found.length > 0 ? found : undefined;
    });
    expect(restored).toHaveLength(1);
    await waitFor("the deployment to point at the new SCP", async () => {
      const [row] = await deploymentRows(db(), awsBundleId);
      return row?.status === "DEPLOYED" && row.nativeId === restored[0]?.id;
    });
    expect((await tryS3("payments-prod")).status).toBe(403);
    const missing = await db()
      .select()
      .from(policyEvents)
      .where(and(eq(policyEvents.bundleId, awsBundleId), eq(policyEvents.type, "MISSING")));
    expect(missing).toHaveLength(1);
  });

  it("restores an Azure assignment deleted behind Palisade's back and reports it missing", async () => {
    const subscription = await scope("corp-dev");
    const { bundle } = await manager().createBundle({
      name: "HTTPS-only storage in corp-dev",
      policySlug: AZURE_SLUG,
      scopes: [subscription],
      mode: DeploymentMode.PREVENT,
      isVisible: true,
    });
    const id = bundle?.entity?.id ?? "";
    await expectDeployed(db(), id, 30_000);
    const [deployment] = await deploymentRows(db(), id);
    const assignmentId = deployment?.nativeId ?? "";
    const [connector] = await db()
      .select()
      .from(connectors)
      .where(and(eq(connectors.tenantId, tenantId), eq(connectors.name, "Sandbox Azure tenant")));
    if (!connector) throw new Error("no sandbox Azure connector");
    const provider = server.palisade.cloud.service.runtime.providerFor(connector);
    if (provider.provider !== "azure") throw new Error("not an Azure connector");
    await provider.removeAssignment(assignmentId);
    expect(await provider.assignmentExists(assignmentId)).toBe(false);

    await manager().sync({});
    await waitFor(
      "the assignment to be restored",
      async () => (await provider.assignmentExists(assignmentId)) || undefined,
    );
    const missing = await db()
      .select()
      .from(policyEvents)
      .where(and(eq(policyEvents.bundleId, id), eq(policyEvents.type, "MISSING")));
    expect(missing).toHaveLength(1);
  });

  it("deploys in ALERT mode without attaching anything or denying anything", async () => {
    const ou = await scope("Sandbox");
    const { bundle } = await manager().createBundle({
      name: "Watch S3 public access",
      policySlug: S3_SLUG,
      scopes: [ou],
      mode: DeploymentMode.ALERT,
      isVisible: true,
    });
    const id = bundle?.entity?.id ?? "";
    await waitForBundleStatus(db(), id, ["DEPLOYED", "FAILED"]);
    const [deployment] = await deploymentRows(db(), id);
    expect(deployment?.status).toBe("DEPLOYED");
    // SCPs cannot audit: nothing is attached for an ALERT guardrail.
    expect(deployment?.nativeId).toBeNull();
    expect(await scpsNamed(sandbox, `palisade-${ou.externalId}-0`)).toEqual([]);
    expect((await tryS3("sandbox-bob")).status).toBe(200);

    // PREVENT through UpdateBundle attaches it; deleting the bundle removes it from the cloud.
    const updated = await manager().update({ id: deployment?.id ?? "", mode: DeploymentMode.PREVENT });
    expect(updated.deployment).toMatchObject({
      mode: DeploymentMode.PREVENT,
      status: DeploymentStatus.DEPLOYED,
    });
    expect((await tryS3("sandbox-bob")).status).toBe(403);
    await manager().deleteBundle({ id });
    await waitFor("the SCP to be removed", async () => {
      const rows = await deploymentRows(db(), id);
      return rows.every((row) => row.status === "DELETED");
    });
    // The OU's packed SCP held only this guardrail, so it is detached and deleted.
    expect(await scpsNamed(sandbox, `palisade-${ou.externalId}-0`)).toEqual([]);
    expect((await tryS3("sandbox-bob")).status).toBe(200);
    const { bundle: deleted } = await manager().getBundle({ lookup: { case: "id", value: id } });
    expect(deleted?.bundle?.status).toBe(DeploymentStatus.DELETED);
    expect(
      (await errorOf(server.client(PolicyService).getBundleByKey({ key: bundle?.key ?? "" }))).code,
    ).toBe(Code.NotFound);
  });

  it("packs five PREVENT bundles on one target into one shared SCP next to FullAWSAccess", async () => {
    const ou = await scope("Infrastructure");
    const ids: string[] = [];
    // Per-bundle SCPs would need six places; packed, they take one.
    for (let i = 0; i < 5; i++) {
      const { bundle } = await manager().createBundle({
        name: `Glacier guard ${i}`,
        policySlug: "deny-glacier-vault-deletion",
        scopes: [ou],
        mode: DeploymentMode.PREVENT,
        isVisible: true,
      });
      ids.push(bundle?.entity?.id ?? "");
    }
    for (const id of ids) await waitForBundleStatus(db(), id, ["DEPLOYED", "FAILED"]);
    const rows = (await Promise.all(ids.map((id) => deploymentRows(db(), id)))).map(([row]) => row);
    for (const row of rows) expect(row?.status).toBe("DEPLOYED");
    expect(new Set(rows.map((row) => row?.nativeId)).size).toBe(1);
    const attached = await (await awsProvider()).listTargetScps(ou.externalId);
    expect(attached.map((p) => p.name).sort()).toEqual(["FullAWSAccess", `palisade-${ou.externalId}-0`]);
    for (const id of ids) await manager().deleteBundle({ id });
    await waitFor("every guardrail to leave the cloud", async () => {
      const all = (await Promise.all(ids.map((id) => deploymentRows(db(), id)))).flat();
      return all.every((row) => row.status === "DELETED") || undefined;
    });
    expect((await (await awsProvider()).listTargetScps(ou.externalId)).map((p) => p.name)).toEqual([
      "FullAWSAccess",
    ]);
  });

  it("deploys an Azure bundle in PREVENT mode; a non-compliant write is disallowed with the key", async () => {
    const subscription = await scope("corp-prod");
    const { bundle } = await manager().createBundle({
      name: "HTTPS-only storage",
      policySlug: AZURE_SLUG,
      scopes: [subscription],
      mode: DeploymentMode.PREVENT,
      isVisible: true,
    });
    const id = bundle?.entity?.id ?? "";
    const row = await waitForBundleStatus(db(), id, ["DEPLOYED", "FAILED"]);
    expect(row.errorCodes).toEqual([]);
    expect(row.status).toBe("DEPLOYED");
    const [deployment] = await deploymentRows(db(), id);
    expect(deployment?.nativeId).toContain("/providers/Microsoft.Authorization/policyAssignments/");

    const resource = `${subscription.externalId}/resourceGroups/rg-corp-prod-data/providers/Microsoft.Storage/storageAccounts/stplain${engine}`;
    const denied = await tryAction(sandbox, {
      provider: "azure",
      principal: "alice",
      action: "write",
      resource,
      context: { location: "westeurope", "properties.supportsHttpsTrafficOnly": false },
    });
    expect(denied.status).toBe(403);
    expect(denied.text).toContain("RequestDisallowedByPolicy");
    expect(denied.text).toContain(bundle?.key);

    const allowed = await tryAction(sandbox, {
      provider: "azure",
      principal: "alice",
      action: "write",
      resource: `${resource}ok`,
      context: { location: "westeurope", "properties.supportsHttpsTrafficOnly": true },
    });
    expect(allowed.status).toBe(200);

    // ALERT turns the assignment to Audit: the same write goes through.
    const switched = await manager().updateAsync({ id: deployment?.id ?? "", mode: DeploymentMode.ALERT });
    expect(switched.jobId).not.toBe("");
    expect(switched.deployment).toMatchObject({
      mode: DeploymentMode.ALERT,
      status: DeploymentStatus.PENDING,
    });
    await expectDeployed(db(), id, 30_000);
    const audited = await tryAction(sandbox, {
      provider: "azure",
      principal: "alice",
      action: "write",
      resource: `${resource}audit`,
      context: { location: "westeurope", "properties.supportsHttpsTrafficOnly": false },
    });
    expect(audited.status).toBe(200);
  });

  it("records a waiver for one principal directly and removes it again", async () => {
    const account = await node(db(), tenantId, "payments-prod");
    const alice = `arn:aws:iam::${account.externalId}:user/alice`;
    const tryAs = (user: string) =>
      tryAction(sandbox, {
        provider: "aws",
        account: "payments-prod",
        principal: `user/${user}`,
        action: "s3:PutAccountPublicAccessBlock",
        resource: "*",
      });
    const { waiver } = await manager().createWaiver({
      key: awsKey,
      expiresAt: timestampFromDate(new Date(Date.now() + 30 * 60_000)),
      waiverRequest: {
        target: { case: "principalArn", value: alice },
        requester: { name: "Alice", identifier: "alice@example.com", comment: "Incident 42" },
      },
    });
    const id = waiver?.entity?.id ?? "";
    expect(waiver?.policyKey).toBe(awsKey);
    const deploymentStatusOf = async () =>
      (await db().select().from(waivers).where(eq(waivers.id, id)))[0]?.deploymentStatus;
    await waitFor("the waiver to reach the cloud", async () => (await deploymentStatusOf()) === "ACTIVE");
    expect((await tryAs("alice")).status).toBe(200);
    expect((await tryAs("bob")).status).toBe(403);

    await manager().deleteWaiver({ id });
    await waitFor("the waiver to leave the cloud", async () => (await deploymentStatusOf()) === "PENDING");
    expect((await tryAs("alice")).status).toBe(403);
    expect((await errorOf(manager().deleteWaiver({ id }))).code).toBe(Code.FailedPrecondition);
    expect((await errorOf(manager(viewer).deleteWaiver({ id }))).code).toBe(Code.PermissionDenied);
  });

  it("exports bundles with their deployments through a signed link, now or later", async () => {
    // Links carry the public address; the test server listens on an ephemeral port.
    const local = (link: string) => {
      const url = new URL(link);
      return `${server.url}${url.pathname}${url.search}`;
    };
    const { presignedUrl } = await manager(viewer).export({ filter: { search: awsKey } });
    const csv = await (await fetch(local(presignedUrl))).text();
    const [header, ...lines] = csv.trim().split(/\r?\n/);
    expect(header).toContain("key");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(awsKey);
    expect(lines[0]).toContain("DEPLOYED");

    const later = await manager(viewer).exportAsync({ filter: { search: awsKey } });
    expect(later.jobId).not.toBe("");
    const body = await waitFor("the export file", async () => {
      const response = await fetch(local(later.presignedUrl));
      return response.ok ? response.text() : undefined;
    });
    expect(body).toContain(awsKey);

    const { jobId } = await manager().triggerFetch({ id: awsBundleId });
    expect(jobId).not.toBe("");
  });

  it("puts an enforceable waiver into the SCP and lets the cloud end it at expiry", async () => {
    const account = await node(db(), tenantId, "payments-prod");
    const [deployment] = await deploymentRows(db(), awsBundleId);
    const [waiver] = await db()
      .insert(waivers)
      .values({
        tenantId,
        deploymentId: deployment?.id ?? "",
        policyKey: awsKey,
        createSource: "FORM",
        requesterName: "Alice",
        requesterIdentifier: "alice@example.com",
        comment: "rotate the account baseline",
        durationSeconds: 3600,
        expiresAt: new Date(Date.now() + 3600_000),
        scope: account.externalId,
        status: "ACTIVE",
        approvalType: "AUTO",
        deploymentStatus: "PENDING",
      })
      .returning();
    await enqueueBundleSync(server.palisade.jobs, { bundleId: awsBundleId, tenantId, reason: "test waiver" });
    await waitFor("the waiver to reach the cloud", async () => {
      const [row] = await db()
        .select()
        .from(waivers)
        .where(eq(waivers.id, waiver?.id ?? ""));
      return row?.deploymentStatus === "ACTIVE";
    });
    expect((await tryS3("payments-prod")).status).toBe(200);
    // Other accounts under the OU stay denied.
    expect((await tryS3("storefront-prod")).status).toBe(403);

    const { bundle } = await manager().getBundle({ lookup: { case: "id", value: awsBundleId } });
    expect(bundle).toMatchObject({ waiversCount: 2, activeWaiversCount: 1 });

    // The SCP itself stops exempting the account at expiry, whatever Palisade does.
    await advanceSandboxClock(sandbox, 2 * 3600);
    expect((await tryS3("payments-prod")).status).toBe(403);
  });
});

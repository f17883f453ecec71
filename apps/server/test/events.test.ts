import { existsSync } from "node:fs";
import { join } from "node:path";
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import {
  CloudProvider,
  ExportFormat,
  Order,
  TimeRangeSchema,
} from "@palisade/api/gen/palisade/common/v1/common_pb";
import { EventType, EventUserType, type PolicyEvent } from "@palisade/api/gen/palisade/event/v1/event_pb";
import {
  type EventFilter,
  EventFilterSchema,
  EventOrderBy,
  PolicyEventStoreService,
} from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { compileScp } from "@palisade/policy-engine/compilers/aws/compile-scp";
import { compileAzureBundle } from "@palisade/policy-engine/compilers/azure/compile-azure";
import type { ActiveWaiver } from "@palisade/policy-engine/compilers/compile-input";
import { DEFAULT_ACTIVITY_LOG_LAG_MS } from "@palisade/sandbox-cloud/azure/activity-log";
import { and, desc, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AwsCloudProvider, AzureCloudProvider } from "../src/cloud/cloud-provider";
import { auditLog } from "../src/modules/audit/audit-schema";
import { connectors, hierarchyNodes } from "../src/modules/connector/connector-schema";
import { bundles, deployments } from "../src/modules/deployment/deployment-schema";
import { policyEvents } from "../src/modules/event/event-schema";
import { recordMissingDeployment, writeEvents } from "../src/modules/event/record-event";
import { deleteExportFilesBeforeAnyTenant } from "../src/modules/export/export-file-repository";
import { loadCatalogue } from "../src/modules/policy-definition/load-catalogue";
import { waivers } from "../src/modules/waiver/waiver-schema";
import { errorOf } from "./support/call-error";
import { advanceSandboxClock } from "./support/deployment-helpers";
import { succeededJob } from "./support/job-wait";
import { engines } from "./support/test-database";
import { type Credentials, startTestServer, type TestServer } from "./support/test-server";
import { fetchUntil } from "./support/trail-wait";

const { catalogue } = loadCatalogue();

describe.each(engines)("policy events on %s", (engine) => {
  let server: TestServer;
  let admin: Credentials;
  let viewer: Credentials;
  let moderator: Credentials;
  let tenantId: string;
  let awsConnector: typeof connectors.$inferSelect;
  let azureConnector: typeof connectors.$inferSelect;
  let sandboxUrl: string;
  const ids: Record<string, string> = {};

  const db = () => server.palisade.database.db;

  async function waitForSync() {
    for (let i = 0; i < 400; i += 1) {
      const rows = await db().select().from(connectors).where(eq(connectors.tenantId, tenantId));
      if (rows.length === 2 && rows.every((r) => r.status === "CONNECTED")) return rows;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error("sandbox connectors did not sync");
  }

  async function node(connectorId: string, name: string) {
    const [row] = await db()
      .select()
      .from(hierarchyNodes)
      .where(and(eq(hierarchyNodes.connectorId, connectorId), eq(hierarchyNodes.name, name)));
    if (!row) throw new Error(`no hierarchy node ${name}`);
    return row;
  }

  async function seedBundle(input: {
    key: string;
    name: string;
    slug: string;
    provider: "aws" | "azure";
    mode: "PREVENT" | "ALERT";
    scope: { externalId: string; name: string };
    connectorId: string;
  }) {
    const [bundle] = await db()
      .insert(bundles)
      .values({
        tenantId,
        key: input.key,
        name: input.name,
        policySlug: input.slug,
        provider: input.provider,
        mode: input.mode,
        status: "DEPLOYED",
        scopes: [input.scope],
        affectedResourceTypes: catalogue.bySlug.get(input.slug)?.affected_resource_types ?? [],
        createdBy: "test",
      })
      .returning();
    const [deployment] = await db()
      .insert(deployments)
      .values({
        tenantId,
        bundleId: bundle!.id,
        key: input.key,
        connectorId: input.connectorId,
        scope: input.scope,
        scopeExternalId: input.scope.externalId,
        mode: input.mode,
        status: "DEPLOYED",
        policySlug: input.slug,
        name: input.name,
        createdBy: "test",
      })
      .returning();
    return { bundle: bundle!, deployment: deployment! };
  }

  function compileInput(seeded: Awaited<ReturnType<typeof seedBundle>>, waiverList: ActiveWaiver[] = []) {
    return {
      definition: catalogue.bySlug.get(seeded.bundle.policySlug)!,
      definitions: catalogue.bySlug,
      parameters: {},
      mode: seeded.bundle.mode as "PREVENT" | "ALERT",
      key: seeded.bundle.key,
      name: seeded.bundle.name,
      scopes: [{ id: seeded.deployment.scopeExternalId }],
      excludedScopes: [],
      waivers: waiverList,
      waiverLinkBaseUrl: server.url,
      now: new Date(),
    };
  }

  async function deployScp(seeded: Awaited<ReturnType<typeof seedBundle>>, waiverList: ActiveWaiver[] = []) {
    const provider = server.palisade.cloud.service.runtime.providerFor(awsConnector) as AwsCloudProvider;
    const ref = await provider.applyScp(
      compileScp(compileInput(seeded, waiverList)),
      seeded.deployment.nativeId ?? undefined,
    );
    await db().update(deployments).set({ nativeId: ref.id }).where(eq(deployments.id, seeded.deployment.id));
    seeded.deployment.nativeId = ref.id;
    return ref;
  }

  async function deployAzure(seeded: Awaited<ReturnType<typeof seedBundle>>) {
    const provider = server.palisade.cloud.service.runtime.providerFor(azureConnector) as AzureCloudProvider;
    const compiled = compileAzureBundle(compileInput(seeded));
    // Assigning again is what makes Azure re-evaluate the resources under it. arm-policy accepts
    // only 201 from a PUT, so an existing assignment is removed first.
    if (seeded.deployment.nativeId) await provider.removeAssignment(seeded.deployment.nativeId);
    else await provider.putDefinition(compiled.definition);
    const assignmentId = await provider.putAssignment(compiled.assignments[0]!);
    await db()
      .update(deployments)
      .set({ nativeId: assignmentId })
      .where(eq(deployments.id, seeded.deployment.id));
    seeded.deployment.nativeId = assignmentId;
    // Azure applies (and evaluates) a new assignment only after its propagation delay.
    await new Promise((resolve) => setTimeout(resolve, provider.policyPropagationSeconds * 1_000 + 100));
  }

  async function tryAction(body: Record<string, unknown>) {
    const response = await fetch(`${sandboxUrl}/sandbox/try`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  async function fetchEvents(connectorId: string) {
    const client = server.client(PolicyEventStoreService, admin);
    const { jobId } = await client.triggerFetch({ connectorId });
    return succeededJob(db(), jobId);
  }

  async function eventsOf(type: EventType, bundleId: string): Promise<PolicyEvent[]> {
    const { items } = await server
      .client(PolicyEventStoreService, viewer)
      .listEvents({ filter: { type: [type], policyId: bundleId } });
    return items;
  }

  beforeAll(async () => {
    server = await startTestServer(engine, { PALISADE_SANDBOX: "true", SANDBOX_ACTIVITY: "false" });
    tenantId = server.defaultTenantId;
    admin = (await server.addMember({ role: "ADMINISTRATOR" })).credentials;
    viewer = (await server.addMember({ role: "VIEWER" })).credentials;
    moderator = (await server.addMember({ role: "MODERATOR" })).credentials;
    sandboxUrl = server.palisade.cloud.sandbox?.url ?? "";
    const rows = await waitForSync();
    awsConnector = rows.find((r) => (r.config as { provider: string }).provider === "aws")!;
    azureConnector = rows.find((r) => (r.config as { provider: string }).provider === "azure")!;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("records a denial by a Palisade SCP as a prevention, once, with who and what", async () => {
    const sandboxOu = await node(awsConnector.id, "Sandbox");
    const seeded = await seedBundle({
      key: "PRVNT2A",
      name: "No leaving the organisation",
      slug: "deny-leave-organization",
      provider: "aws",
      mode: "PREVENT",
      scope: { externalId: sandboxOu.externalId, name: "Sandbox" },
      connectorId: awsConnector.id,
    });
    ids.awsBundle = seeded.bundle.id;
    const ref = await deployScp(seeded);
    const denied = await tryAction({
      provider: "aws",
      account: "sandbox-alice",
      principal: "user/alice",
      action: "organizations:LeaveOrganization",
      resource: "*",
    });
    expect(denied.status).toBe(403);
    expect(JSON.stringify(denied.body)).toContain(ref.id);

    const preventions = await fetchUntil(async () => {
      await fetchEvents(awsConnector.id);
      return eventsOf(EventType.PREVENTION, seeded.bundle.id);
    });
    expect(preventions).toHaveLength(1);
    const event = preventions[0]!;
    expect(event.policyDeployment?.name).toBe("No leaving the organisation");
    expect(event.policyDeployment?.key).toBe("PRVNT2A");
    expect(event.cloudProvider).toBe(CloudProvider.AWS);
    expect(event.user?.identifier).toMatch(/:user\/alice$/);
    expect(event.user?.name).toBe("alice");
    expect(event.user?.type).toBe(EventUserType.USER);
    expect(event.audits[0]?.action).toBe("organizations:LeaveOrganization");
    expect(event.resource?.scope?.name).toBe("sandbox-alice");
    ids.preventionEvent = event.entity?.id ?? "";

    // Fetching again reads from the cursor and re-classifying the same record adds nothing.
    await db().update(connectors).set({ eventCursor: null }).where(eq(connectors.id, awsConnector.id));
    await fetchEvents(awsConnector.id);
    expect(await eventsOf(EventType.PREVENTION, seeded.bundle.id)).toHaveLength(1);
  });

  it("records a request let through by an active waiver as waived", async () => {
    const [seeded] = await Promise.all([
      (async () => {
        const [bundle] = await db().select().from(bundles).where(eq(bundles.id, ids.awsBundle!));
        const [deployment] = await db()
          .select()
          .from(deployments)
          .where(eq(deployments.bundleId, ids.awsBundle!));
        return { bundle: bundle!, deployment: deployment! };
      })(),
    ]);
    const principalArn = (
      await tryAction({
        provider: "aws",
        account: "sandbox-alice",
        principal: "user/bob",
        action: "organizations:DescribeOrganization",
        resource: "*",
      })
    ).body.principal as string;
    const expiresAt = new Date(Date.now() + 3600_000);
    const [waiver] = await db()
      .insert(waivers)
      .values({
        tenantId,
        deploymentId: seeded.deployment.id,
        policyKey: seeded.bundle.key,
        createSource: "FORM",
        requesterName: "bob",
        requesterIdentifier: "bob@example.test",
        comment: "migration",
        durationSeconds: 3600,
        expiresAt,
        principalArn,
        status: "ACTIVE",
        approvalType: "AUTO",
        reviewedAt: new Date(Date.now() - 60_000),
        deploymentStatus: "ACTIVE",
      })
      .returning();
    await deployScp(seeded, [{ id: waiver!.id, key: seeded.bundle.key, expiresAt, principalArn }]);
    const allowed = await tryAction({
      provider: "aws",
      account: "sandbox-alice",
      principal: "user/bob",
      action: "organizations:LeaveOrganization",
      resource: "*",
    });
    expect(allowed.status).toBe(200);
    const waived = await fetchUntil(async () => {
      await fetchEvents(awsConnector.id);
      return eventsOf(EventType.WAIVED, seeded.bundle.id);
    });
    expect(waived).toHaveLength(1);
    expect(waived[0]?.user?.name).toBe("bob");
    // Alice is not waived and is still denied; her read-only call is not an event at all.
    expect(await eventsOf(EventType.PREVENTION, seeded.bundle.id)).toHaveLength(1);
  });

  it("records what an ALERT SCP would have denied, and denies nothing", async () => {
    const dev = await node(awsConnector.id, "Workloads-Dev");
    const seeded = await seedBundle({
      key: "ALRT3B7",
      name: "Watch organisation exits",
      slug: "deny-leave-organization",
      provider: "aws",
      mode: "ALERT",
      scope: { externalId: dev.externalId, name: "Workloads-Dev" },
      connectorId: awsConnector.id,
    });
    ids.alertBundle = seeded.bundle.id;
    await deployScp(seeded);
    const result = await tryAction({
      provider: "aws",
      account: "payments-dev",
      principal: "role/ci-deployer",
      action: "organizations:LeaveOrganization",
      resource: "*",
    });
    expect(result.status).toBe(200);
    const alerts = await fetchUntil(async () => {
      await fetchEvents(awsConnector.id);
      return eventsOf(EventType.ALERT, seeded.bundle.id);
    });
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.user?.type).toBe(EventUserType.APPLICATION);
  });

  it("records an Azure RequestDisallowedByPolicy as a prevention, a non-compliant resource as drift once the Activity Log has had the time to list its request, then resolved", async () => {
    const sub = await node(azureConnector.id, "corp-dev");
    const rg = `${sub.externalId}/resourceGroups/rg-corp-dev-data`;
    const storage = `${rg}/providers/Microsoft.Storage/storageAccounts/stlegacyhttp`;
    // A storage account that predates the guardrail.
    const before = await tryAction({
      provider: "azure",
      principal: "alice",
      action: "write",
      resource: storage,
      context: { location: "westeurope", "properties.supportsHttpsTrafficOnly": "false" },
    });
    expect(before.status).toBe(200);
    const seeded = await seedBundle({
      key: "AZPRV4C",
      name: "HTTPS-only storage",
      slug: "storage-accounts-https-only",
      provider: "azure",
      mode: "PREVENT",
      scope: { externalId: sub.externalId, name: "corp-dev" },
      connectorId: azureConnector.id,
    });
    ids.azureBundle = seeded.bundle.id;
    await deployAzure(seeded);
    const denied = await tryAction({
      provider: "azure",
      principal: "bob",
      action: "write",
      resource: `${rg}/providers/Microsoft.Storage/storageAccounts/stnewhttp`,
      context: { location: "westeurope", "properties.supportsHttpsTrafficOnly": "false" },
    });
    expect(denied.status).toBe(403);
    expect(JSON.stringify(denied.body)).toContain("AZPRV4C");

    // The denied request's non-compliant state is there at once, its Activity Log entry only once
    // submitted (https://learn.microsoft.com/azure/azure-monitor/essentials/activity-log-schema,
    // submissionTimestamp): a fetch now sees the state without the request. Neither state is
    // judged yet, the denied one's request being on its way.
    await fetchEvents(azureConnector.id);
    expect(await eventsOf(EventType.DRIFT, seeded.bundle.id)).toEqual([]);
    expect(await eventsOf(EventType.PREVENTION, seeded.bundle.id)).toEqual([]);

    // The Activity Log lists the denial once submitted.
    await advanceSandboxClock(server.palisade.cloud.sandbox!, DEFAULT_ACTIVITY_LOG_LAG_MS / 1000);
    await fetchEvents(azureConnector.id);
    // Past the lag (and the few seconds a state may be stamped before its request), the legacy
    // account's state has no request of its own: it is drift.
    await advanceSandboxClock(server.palisade.cloud.sandbox!, 10);
    await fetchEvents(azureConnector.id);
    const preventions = await eventsOf(EventType.PREVENTION, seeded.bundle.id);
    expect(preventions).toHaveLength(1);
    expect(preventions[0]?.resource?.name).toBe("stnewhttp");
    expect(preventions[0]?.resource?.details?.nativeType).toBe("Microsoft.Storage/storageAccounts");
    expect(preventions[0]?.user?.identifier).toBe("bob@contoso.example");
    const drifts = await eventsOf(EventType.DRIFT, seeded.bundle.id);
    expect(drifts.map((e) => e.resource?.name)).toContain("stlegacyhttp");
    // The denied request's own non-compliant state is the prevention, not a drift.
    expect(drifts.map((e) => e.resource?.name)).not.toContain("stnewhttp");

    // Fixed, then re-evaluated: the drift is resolved and becomes historical.
    const fixed = await tryAction({
      provider: "azure",
      principal: "alice",
      action: "write",
      resource: storage,
      context: { "properties.supportsHttpsTrafficOnly": "true" },
    });
    expect(fixed.status).toBe(200);
    await deployAzure(seeded);
    await fetchEvents(azureConnector.id);
    const resolved = await eventsOf(EventType.RESOLVED, seeded.bundle.id);
    expect(resolved.map((e) => e.resource?.name)).toContain("stlegacyhttp");
    const historical = await eventsOf(EventType.HISTORICAL_DRIFT, seeded.bundle.id);
    expect(historical.map((e) => e.resource?.name)).toContain("stlegacyhttp");
    expect((await eventsOf(EventType.DRIFT, seeded.bundle.id)).map((e) => e.resource?.name)).not.toContain(
      "stlegacyhttp",
    );

    const { trend } = await server
      .client(PolicyEventStoreService, viewer)
      .getCompliantTrend({ bundleId: seeded.bundle.id });
    // The default range is the last 30 days, which touches 31 calendar days.
    expect(trend?.points).toHaveLength(31);
    expect((trend?.overall?.compliant ?? 0) + (trend?.overall?.nonCompliant ?? 0)).toBeGreaterThan(0);
    expect(trend?.overall?.nonCompliant).toBe(
      trend?.points.at(-1) ? trend.points.at(-1)?.totals?.nonCompliant : undefined,
    );
  });

  it("lists with every filter and walks keyset pages without gaps or repeats", async () => {
    // Enough events to page through: written as the pipeline writes them.
    const [deployment] = await db()
      .select()
      .from(deployments)
      .where(eq(deployments.bundleId, ids.awsBundle!));
    const base = Date.parse("2026-01-10T00:00:00Z");
    await writeEvents(
      db(),
      Array.from({ length: 45 }, (_, i) => ({
        tenantId,
        providerEventId: `paging-${i}`,
        type: i % 3 === 0 ? ("ALERT" as const) : ("PREVENTION" as const),
        cloudProvider: "AWS" as const,
        deploymentId: deployment!.id,
        bundleId: ids.awsBundle,
        deploymentName: "No leaving the organisation",
        resourceExternalId: `arn:aws:s3:::bucket-${i % 5}`,
        resourceNativeType: "AWS::S3::Bucket",
        resourceName: `bucket-${i % 5}`,
        resourceScope: "123456789012",
        userIdentifier: i % 2 === 0 ? "arn:aws:iam::123456789012:user/carol" : "",
        userName: i % 2 === 0 ? "carol" : "",
        // Pairs share a timestamp so the id breaks ties.
        occurredAt: new Date(base + Math.floor(i / 2) * 60_000),
      })),
    );
    const client = server.client(PolicyEventStoreService, viewer);
    const filter = create(EventFilterSchema, {
      policyId: ids.awsBundle,
      timeRange: {
        start: timestampFromDate(new Date(base)),
        end: timestampFromDate(new Date(base + 86_400_000)),
      },
    });
    const seen: string[] = [];
    let end: string | undefined;
    for (let page = 0; page < 10; page += 1) {
      const { items, pagination } = await client.listEvents({
        filter,
        pagination: { position: { case: "cursor", value: { end } }, limit: 10 },
      });
      seen.push(...items.map((e) => e.entity?.id ?? ""));
      const cursor = pagination?.position.case === "cursor" ? pagination.position.value : undefined;
      expect(pagination?.totalItems).toBe(45);
      end = cursor?.end;
      if (!end) break;
    }
    expect(seen).toHaveLength(45);
    expect(new Set(seen).size).toBe(45);
    const { items: all } = await client.listEvents({
      filter,
      pagination: { limit: 45, order: Order.ASCENDING },
    });
    expect(all.map((e) => e.entity?.id)).toEqual([...seen].reverse());

    // A resource-name search pages through the matching resources' events newest first, each once.
    const matching: string[] = [];
    let after: string | undefined;
    for (let page = 0; page < 10; page += 1) {
      const { items, pagination } = await client.listEvents({
        filter: create(EventFilterSchema, { ...filter, resourceName: "ucket-1" }),
        pagination: { position: { case: "cursor", value: { end: after } }, limit: 4 },
      });
      matching.push(...items.map((e) => e.entity?.id ?? ""));
      expect(items.map((e) => e.resource?.name)).toEqual(items.map(() => "bucket-1"));
      expect(pagination?.totalItems).toBe(9);
      after = pagination?.position.case === "cursor" ? pagination.position.value.end : undefined;
      if (!after) break;
    }
    expect(matching).toEqual(
      seen.filter((id) => all.find((e) => e.entity?.id === id)?.resource?.name === "bucket-1"),
    );

    const count = async (extra: Partial<EventFilter>) =>
      (
        await client.listEvents({
          filter: create(EventFilterSchema, { ...filter, ...extra }),
          pagination: { position: { case: "page", value: 1 }, limit: 200 },
        })
      ).pagination?.totalItems;
    expect(await count({ type: [EventType.ALERT] })).toBe(15);
    expect(await count({ resourceName: "BUCKET-3" })).toBe(9);
    expect(await count({ resourceType: ["AWS::S3::Bucket"] })).toBe(45);
    expect(await count({ resourceType: ["AWS::EC2::Instance"] })).toBe(0);
    expect(await count({ policyName: ["No leaving the organisation"] })).toBe(45);
    expect(await count({ policyName: ["Another"] })).toBe(0);
    expect(await count({ user: ["carol"] })).toBe(23);
    expect(await count({ scope: ["123456789012"] })).toBe(45);
    expect(await count({ cloudProviders: [CloudProvider.AZURE] })).toBe(0);
    expect(
      await count({
        timeRange: create(TimeRangeSchema, {
          start: timestampFromDate(new Date(base + 10 * 60_000)),
          end: timestampFromDate(new Date(base + 86_400_000)),
        }),
      }),
    ).toBe(25);

    // A blank user shows as Unknown User; names keep their budget.
    const unknown = all.find((e) => !e.user?.identifier);
    expect(unknown?.user?.name).toBe("Unknown User");

    // Sorted by resource name, keyset pages still cover every event once.
    const byName: string[] = [];
    let next: string | undefined;
    do {
      const { items, pagination } = await client.listEvents({
        filter,
        orderBy: EventOrderBy.RESOURCE_NAME,
        pagination: { position: { case: "cursor", value: { end: next } }, limit: 7, order: Order.ASCENDING },
      });
      byName.push(...items.map((e) => e.resource?.name ?? ""));
      next = pagination?.position.case === "cursor" ? pagination.position.value.end : undefined;
    } while (next);
    expect(byName).toEqual([...byName].sort());
    expect(byName).toHaveLength(45);

    // Resource events: one per resource and deployment, at its newest event.
    const resources = await client.list({
      filter: { policyId: ids.awsBundle, resourceType: ["AWS::S3::Bucket"] },
    });
    expect(resources.items).toHaveLength(5);
    const bad = await errorOf(
      client.listEvents({ pagination: { position: { case: "cursor", value: { end: "not-a-cursor" } } } }),
    );
    expect(bad.code).toBe(Code.InvalidArgument);
  });

  it("dismisses and restores events and resource events", async () => {
    const reader = server.client(PolicyEventStoreService, viewer);
    const writer = server.client(PolicyEventStoreService, moderator);
    const { items } = await reader.list({ filter: { policyId: ids.awsBundle, resourceName: "bucket-1" } });
    const latest = items[0]?.event?.entity?.id ?? "";
    const { resourceEvent } = await writer.updateResources({ id: latest, isDismissed: true });
    expect(resourceEvent?.isDismissed).toBe(true);
    const hidden = await reader.list({ filter: { policyId: ids.awsBundle, resourceName: "bucket-1" } });
    expect(hidden.items).toHaveLength(0);
    const shown = await reader.list({
      filter: { policyId: ids.awsBundle, resourceName: "bucket-1", type: [EventType.DISMISSED] },
    });
    expect(shown.items).toHaveLength(1);
    const summary = await reader.summary({ filter: { policyId: ids.awsBundle } });
    expect(summary.summary?.dismissed).toBe(9);
    await writer.updateResources({ id: latest, isDismissed: false });
    expect(
      (await reader.list({ filter: { policyId: ids.awsBundle, resourceName: "bucket-1" } })).items,
    ).toHaveLength(1);

    const { event } = await writer.update({
      id: ids.preventionEvent!,
      isDismissed: true,
      reason: "  Known test account  ",
    });
    expect((await reader.get({ id: event?.entity?.id ?? "" })).event?.entity?.id).toBe(ids.preventionEvent);
    const dismissedOnly = await reader.listEvents({ filter: { isDismissed: true, policyId: ids.awsBundle } });
    expect(dismissedOnly.items.map((e) => e.entity?.id)).toEqual([ids.preventionEvent]);
    // The every-event view tells a dismissed event by its own flag.
    expect(event?.isDismissed).toBe(true);
    expect(dismissedOnly.items[0]?.isDismissed).toBe(true);
    const restored = await writer.update({ id: ids.preventionEvent!, isDismissed: false });
    expect(restored.event?.isDismissed).toBe(false);
    const audited = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.tenantId, tenantId), eq(auditLog.action, "PolicyEventStoreService.Update")));
    expect(audited).toHaveLength(2);
    expect(audited.map((a) => (a.after as { reason?: string }).reason).sort()).toEqual([
      "Known test account",
      undefined,
    ]);
    const tooLong = await errorOf(
      writer.update({ id: ids.preventionEvent!, isDismissed: true, reason: "x".repeat(501) }),
    );
    expect(tooLong.code).toBe(Code.InvalidArgument);
    expect(tooLong.rawMessage).toBe("reason: must be at most 500 characters [string.max_len]");
    const refused = await errorOf(
      server.client(PolicyEventStoreService, viewer).update({ id: ids.preventionEvent!, isDismissed: true }),
    );
    expect(refused.code).toBe(Code.PermissionDenied);
  });

  it("summarises counts, most active bundles, buckets and resource types", async () => {
    const client = server.client(PolicyEventStoreService, viewer);
    const { summary, mostActiveBundles } = await client.summary({});
    const [row] = await db()
      .select()
      .from(policyEvents)
      .where(and(eq(policyEvents.tenantId, tenantId), eq(policyEvents.type, "PREVENTION")))
      .limit(1);
    expect(row).toBeDefined();
    const prevented = (
      await db()
        .select()
        .from(policyEvents)
        .where(and(eq(policyEvents.tenantId, tenantId), eq(policyEvents.type, "PREVENTION")))
    ).length;
    expect(summary?.prevention).toBe(prevented);
    expect(summary?.alerts).toBeGreaterThanOrEqual(16);
    expect(summary?.waivers).toBe(1);
    expect(mostActiveBundles?.prevented[0]?.key).toBe("PRVNT2A");
    expect(mostActiveBundles?.alerted.map((b) => b.key)).toContain("ALRT3B7");
    expect(mostActiveBundles?.waived[0]?.count).toBe(1);

    const buckets = await client.summaryEvents({ filter: { policyId: ids.awsBundle } });
    expect(buckets.buckets.reduce((n, b) => n + (b.summary?.prevention ?? 0), 0)).toBe(
      buckets.total?.prevention,
    );
    const types = await client.summaryResources({ filter: { policyId: ids.awsBundle } });
    expect(types.resourceTypes.map((t) => t.resourceType)).toContain("AWS::S3::Bucket");
    const { resourceTypes } = await client.listResourceTypes({ cloudProvider: CloudProvider.AZURE });
    expect(resourceTypes).toContain("Microsoft.Storage/storageAccounts");
    expect(resourceTypes).not.toContain("AWS::S3::Bucket");
    const { users } = await client.listUserNames({ search: "bo" });
    expect(users.map((u) => u.name)).toEqual(expect.arrayContaining(["bob"]));

    const root = await client.listHierarchyEvents({});
    const awsRoot = root.items.find((i) => i.scope?.provider === CloudProvider.AWS);
    expect(awsRoot?.hasChildren).toBe(true);
    expect(awsRoot?.summary?.prevention).toBeGreaterThanOrEqual(1);
    const { lastFetchedAt } = await client.getComplianceRequestLastFetchedAt({
      connectorId: awsConnector.id,
    });
    expect(lastFetchedAt).toBeDefined();
  });

  it("records a missing deployment once per detection", async () => {
    const [deployment] = await db()
      .select()
      .from(deployments)
      .where(eq(deployments.bundleId, ids.awsBundle!));
    const detectedAt = new Date();
    expect(
      (await recordMissingDeployment(db(), { tenantId, deploymentId: deployment!.id, detectedAt })).recorded,
    ).toBe(true);
    expect(
      (await recordMissingDeployment(db(), { tenantId, deploymentId: deployment!.id, detectedAt })).recorded,
    ).toBe(false);
    expect(await eventsOf(EventType.MISSING, ids.awsBundle!)).toHaveLength(1);
  });

  it("exports the filtered events as CSV behind a signed, expiring link", async () => {
    const client = server.client(PolicyEventStoreService, viewer);
    const { presignedUrl } = await client.export({
      filter: { policyId: ids.awsBundle, type: [EventType.ALERT] },
      format: ExportFormat.CSV,
    });
    expect(presignedUrl.startsWith("http")).toBe(true);
    const link = new URL(presignedUrl);
    const response = await fetch(`${server.url}${link.pathname}${link.search}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/csv");
    const lines = (await response.text()).trim().split("\r\n");
    expect(lines[0]).toContain("occurred_at,type");
    expect(lines).toHaveLength(16);
    expect(lines.slice(1).every((l) => l.includes(",ALERT,"))).toBe(true);

    const tampered = new URL(link);
    tampered.searchParams.set("expires", String(Number(link.searchParams.get("expires")) + 3600));
    expect((await fetch(`${server.url}${tampered.pathname}${tampered.search}`)).status).toBe(403);
    const expired = new URL(link);
    expired.searchParams.set("expires", "1000");
    expect((await fetch(`${server.url}${expired.pathname}${expired.search}`)).status).toBe(403);

    const later = await client.exportAsync({ filter: { policyId: ids.awsBundle } });
    expect(later.jobId).not.toBe("");
    const asyncLink = new URL(later.presignedUrl);
    let status = 0;
    for (let i = 0; i < 200 && status !== 200; i += 1) {
      status = (await fetch(`${server.url}${asyncLink.pathname}${asyncLink.search}`)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(200);
    // The file is kept in the database, where every replica reads it, not on this one's disk.
    expect(existsSync(join(server.dataDir, "exports"))).toBe(false);
    // A day later the files are cleaned up and their links say so.
    expect(await deleteExportFilesBeforeAnyTenant(db(), new Date(Date.now() + 1_000))).toBe(2);
    const cleaned = await fetch(`${server.url}${asyncLink.pathname}${asyncLink.search}`);
    expect(cleaned.status).toBe(410);
  });

  it("answers NotFound for another tenant's events and bundles", async () => {
    const otherTenant = await server.createTenant("Other events");
    const outsider = (await server.addMember({ role: "ADMINISTRATOR", tenantId: otherTenant })).credentials;
    const client = server.client(PolicyEventStoreService, outsider);
    expect((await errorOf(client.get({ id: ids.preventionEvent! }))).code).toBe(Code.NotFound);
    expect((await errorOf(client.update({ id: ids.preventionEvent!, isDismissed: true }))).code).toBe(
      Code.NotFound,
    );
    expect((await errorOf(client.getCompliantTrend({ bundleId: ids.azureBundle! }))).code).toBe(
      Code.NotFound,
    );
    expect((await errorOf(client.triggerFetch({ connectorId: awsConnector.id }))).code).toBe(Code.NotFound);
    expect((await client.listEvents({})).items).toHaveLength(0);
  });

  it("lists a user's events once whether listed by identifier, name or both, paging without gaps or repeats", async () => {
    const [deployment] = await db()
      .select()
      .from(deployments)
      .where(eq(deployments.bundleId, ids.awsBundle!));
    const base = Date.parse("2026-02-10T00:00:00Z");
    const arn = (name: string) => `arn:aws:iam::123456789012:user/${name}`;
    // dave (listed by identifier and by name), erin (by name), dave without an identifier, frank
    // (not listed), interleaved in time; pairs share a timestamp so the id breaks ties.
    const who = [
      { userIdentifier: arn("dave"), userName: "dave" },
      { userIdentifier: arn("erin"), userName: "erin" },
      { userIdentifier: null, userName: "dave" },
      { userIdentifier: arn("frank"), userName: "frank" },
    ];
    await writeEvents(
      db(),
      Array.from({ length: 40 }, (_, i) => ({
        tenantId,
        providerEventId: `users-${i}`,
        type: "PREVENTION" as const,
        cloudProvider: "AWS" as const,
        deploymentId: deployment!.id,
        bundleId: ids.awsBundle,
        deploymentName: "No leaving the organisation",
        resourceExternalId: `arn:aws:sqs:eu-west-1:123456789012:queue-${i % 3}`,
        resourceNativeType: "AWS::SQS::Queue",
        resourceName: `queue-${i % 3}`,
        resourceScope: "123456789012",
        ...who[i % 4],
        occurredAt: new Date(base + Math.floor(i / 2) * 60_000),
      })),
    );
    const listed = (
      await db()
        .select({ id: policyEvents.id, userName: policyEvents.userName, resource: policyEvents.resourceName })
        .from(policyEvents)
        .where(and(eq(policyEvents.tenantId, tenantId), like(policyEvents.providerEventId, "users-%")))
        .orderBy(desc(policyEvents.occurredAt), desc(policyEvents.id))
    ).filter((e) => e.userName !== "frank");
    const expected = listed.map((e) => e.id);
    expect(expected).toHaveLength(30);
    const client = server.client(PolicyEventStoreService, viewer);
    const filter = create(EventFilterSchema, {
      policyId: ids.awsBundle,
      user: [arn("dave"), "dave", "erin"],
      timeRange: {
        start: timestampFromDate(new Date(base)),
        end: timestampFromDate(new Date(base + 86_400_000)),
      },
    });
    const seen: string[] = [];
    let end: string | undefined;
    let start: string | undefined;
    for (let page = 0; page < 10; page += 1) {
      const { items, pagination } = await client.listEvents({
        filter,
        pagination: { position: { case: "cursor", value: { end } }, limit: 7 },
      });
      seen.push(...items.map((e) => e.entity?.id ?? ""));
      expect(pagination?.totalItems).toBe(30);
      const cursor = pagination?.position.case === "cursor" ? pagination.position.value : undefined;
      start = cursor?.start;
      end = cursor?.end;
      if (!end) break;
    }
    expect(seen).toEqual(expected);
    // Back from the last page by its start cursor, and by page number, the same events.
    const { items: previous } = await client.listEvents({
      filter,
      pagination: { position: { case: "cursor", value: { start } }, limit: 7 },
    });
    expect(previous.map((e) => e.entity?.id)).toEqual(expected.slice(21, 28));
    const { items: second } = await client.listEvents({
      filter,
      pagination: { position: { case: "page", value: 2 }, limit: 7 },
    });
    expect(second.map((e) => e.entity?.id)).toEqual(expected.slice(7, 14));
    // With the resource-name search, the users are checked within each matching resource.
    const { items: inQueue, pagination } = await client.listEvents({
      filter: create(EventFilterSchema, { ...filter, resourceName: "queue-1" }),
      pagination: { position: { case: "cursor", value: {} }, limit: 50 },
    });
    const queued = listed.filter((e) => e.resource === "queue-1").map((e) => e.id);
    expect(inQueue.map((e) => e.entity?.id)).toEqual(queued);
    expect(pagination?.totalItems).toBe(queued.length);
  });

  it("shows a member account's denial in another region than the connector's, and its waived retry, from the organisation trail", async () => {
    const sandboxOu = await node(awsConnector.id, "Sandbox");
    const seeded = await seedBundle({
      key: "TRAIL4C",
      name: "Keep CloudTrail on",
      slug: "protect-cloudtrail",
      provider: "aws",
      mode: "PREVENT",
      scope: { externalId: sandboxOu.externalId, name: "Sandbox" },
      connectorId: awsConnector.id,
    });
    await deployScp(seeded);
    const region = "eu-west-2";
    expect((awsConnector.config as { region?: string }).region ?? "us-east-1").not.toBe(region);
    const stop = (principal: string) =>
      tryAction({
        provider: "aws",
        account: "sandbox-alice",
        principal,
        action: "cloudtrail:StopLogging",
        resource: "*",
        region,
      });
    const denied = await stop("role/Developer/carol");
    expect(denied.status).toBe(403);
    expect((denied.body.error as { Message: string }).Message).toContain("assumed-role/Developer/carol");

    const preventions = await fetchUntil(async () => {
      await fetchEvents(awsConnector.id);
      return eventsOf(EventType.PREVENTION, seeded.bundle.id);
    });
    expect(preventions).toHaveLength(1);
    const prevention = preventions[0]!;
    expect(prevention.policyDeployment?.key).toBe("TRAIL4C");
    expect(prevention.resource?.scope?.name).toBe("sandbox-alice");
    expect(prevention.audits[0]?.action).toBe("cloudtrail:StopLogging");
    const memberAccount = prevention.resource?.scope?.externalId;
    expect(prevention.audits[0]?.raw).toMatchObject({ awsRegion: region, recipientAccountId: memberAccount });

    // A waiver for the role, written into the SCP, lets the retry through: a WAIVED event.
    const roleArn = `arn:aws:iam::${memberAccount}:role/Developer`;
    const expiresAt = new Date(Date.now() + 3600_000);
    const [waiver] = await db()
      .insert(waivers)
      .values({
        tenantId,
        deploymentId: seeded.deployment.id,
        policyKey: seeded.bundle.key,
        createSource: "FORM",
        requesterName: "carol",
        requesterIdentifier: "carol@example.test",
        comment: "trail migration",
        durationSeconds: 3600,
        expiresAt,
        principalArn: roleArn,
        status: "ACTIVE",
        approvalType: "AUTO",
        reviewedAt: new Date(Date.now() - 60_000),
        deploymentStatus: "ACTIVE",
      })
      .returning();
    await deployScp(seeded, [{ id: waiver!.id, key: seeded.bundle.key, expiresAt, principalArn: roleArn }]);
    expect((await stop("role/Developer/carol")).status).toBe(200);
    const waived = await fetchUntil(async () => {
      await fetchEvents(awsConnector.id);
      return eventsOf(EventType.WAIVED, seeded.bundle.id);
    });
    expect(waived).toHaveLength(1);
    expect(waived[0]?.resource?.scope?.name).toBe("sandbox-alice");
    expect(waived[0]?.audits[0]?.raw).toMatchObject({ awsRegion: region, recipientAccountId: memberAccount });
  });
});

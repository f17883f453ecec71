import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { ExportFormat } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { EventType } from "@palisade/api/gen/palisade/event/v1/event_pb";
import { ExportStatus, PolicyEventStoreService } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { compileScp } from "@palisade/policy-engine/compilers/aws/compile-scp";
import type { ActiveWaiver } from "@palisade/policy-engine/compilers/compile-input";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AwsCloudProvider } from "../src/cloud/cloud-provider";
import { connectors, hierarchyNodes } from "../src/modules/connector/connector-schema";
import { bundles, deployments } from "../src/modules/deployment/deployment-schema";
import { loadCatalogue } from "../src/modules/policy-definition/load-catalogue";
import { waivers } from "../src/modules/waiver/waiver-schema";
import { succeededJob } from "./support/job-wait";
import { engines } from "./support/test-database";
import { type Credentials, startTestServer, type TestServer } from "./support/test-server";
import { fetchUntil } from "./support/trail-wait";

const { catalogue } = loadCatalogue();

/** Rows in the large export. */
const EXPORT_ROWS = 100_000;
/**
 * The bound on live heap growth while 100k events are exported: a materialised export holds
 * every row object and its CSV text (well over 100 MB for 100k rows); a streamed one holds a
 * page of 2,000 rows at a time. 64 MB leaves room for the server's other work.
 */
const HEAP_BOUND_BYTES = 64 * 1024 * 1024;

// A full collection before each sample, so the figures are live memory rather than garbage
// the collector has not reached yet.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

describe.each(engines)("event attribution and large exports on %s", (engine) => {
  let server: TestServer;
  let admin: Credentials;
  let viewer: Credentials;
  let tenantId: string;
  let awsConnector: typeof connectors.$inferSelect;
  let sandboxUrl: string;
  const db = () => server.palisade.database.db;

  async function node(name: string) {
    const [row] = await db()
      .select()
      .from(hierarchyNodes)
      .where(and(eq(hierarchyNodes.connectorId, awsConnector.id), eq(hierarchyNodes.name, name)));
    if (!row) throw new Error(`no hierarchy node ${name}`);
    return row;
  }

  /** A deployed PREVENT bundle with a waiver for one principal, enforced in the sandbox. */
  async function waivedBundle(input: {
    key: string;
    name: string;
    slug: string;
    scope: { externalId: string; name: string };
    principalArn: string;
  }) {
    const [bundle] = await db()
      .insert(bundles)
      .values({
        tenantId,
        key: input.key,
        name: input.name,
        policySlug: input.slug,
        provider: "aws",
        mode: "PREVENT",
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
        connectorId: awsConnector.id,
        scope: input.scope,
        scopeExternalId: input.scope.externalId,
        mode: "PREVENT",
        status: "DEPLOYED",
        policySlug: input.slug,
        name: input.name,
        createdBy: "test",
      })
      .returning();
    const expiresAt = new Date(Date.now() + 3600_000);
    const [waiver] = await db()
      .insert(waivers)
      .values({
        tenantId,
        deploymentId: deployment!.id,
        policyKey: input.key,
        createSource: "FORM",
        requesterName: "bob",
        requesterIdentifier: "bob@example.test",
        comment: "maintenance",
        durationSeconds: 3600,
        expiresAt,
        principalArn: input.principalArn,
        status: "ACTIVE",
        approvalType: "AUTO",
        reviewedAt: new Date(Date.now() - 60_000),
        deploymentStatus: "ACTIVE",
      })
      .returning();
    const active: ActiveWaiver[] = [
      { id: waiver!.id, key: input.key, expiresAt, principalArn: input.principalArn },
    ];
    const provider = server.palisade.cloud.service.runtime.providerFor(awsConnector) as AwsCloudProvider;
    const ref = await provider.applyScp(
      compileScp({
        definition: catalogue.bySlug.get(input.slug)!,
        definitions: catalogue.bySlug,
        parameters: {},
        mode: "PREVENT",
        key: input.key,
        name: input.name,
        scopes: [{ id: input.scope.externalId }],
        excludedScopes: [],
        waivers: active,
        waiverLinkBaseUrl: server.url,
        now: new Date(),
      }),
    );
    await db().update(deployments).set({ nativeId: ref.id }).where(eq(deployments.id, deployment!.id));
    return { bundle: bundle!, deployment: deployment! };
  }

  async function tryAction(body: Record<string, unknown>) {
    const response = await fetch(`${sandboxUrl}/sandbox/try`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  async function fetchEvents() {
    const { jobId } = await server
      .client(PolicyEventStoreService, admin)
      .triggerFetch({ connectorId: awsConnector.id });
    await succeededJob(db(), jobId);
  }

  async function eventTypesOf(bundleId: string) {
    const { items } = await server
      .client(PolicyEventStoreService, viewer)
      .listEvents({ filter: { policyId: bundleId } });
    return items.map((e) => ({ type: e.type, action: e.audits[0]?.action, key: e.policyDeployment?.key }));
  }

  beforeAll(async () => {
    server = await startTestServer(engine, { PALISADE_SANDBOX: "true", SANDBOX_ACTIVITY: "false" });
    tenantId = server.defaultTenantId;
    admin = (await server.addMember({ role: "ADMINISTRATOR" })).credentials;
    viewer = (await server.addMember({ role: "VIEWER" })).credentials;
    sandboxUrl = server.palisade.cloud.sandbox?.url ?? "";
    for (let i = 0; i < 400; i += 1) {
      const rows = await db().select().from(connectors).where(eq(connectors.tenantId, tenantId));
      const aws = rows.find((r) => (r.config as { provider: string }).provider === "aws");
      if (rows.length === 2 && rows.every((r) => r.status === "CONNECTED") && aws) {
        awsConnector = aws;
        return;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error("sandbox connectors did not sync");
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("attributes a waived action to the bundle whose waiver let it through when two bundles overlap", async () => {
    const root = await node("Root");
    const sandboxOu = await node("Sandbox");
    const principalArn = (
      await tryAction({
        provider: "aws",
        account: "sandbox-alice",
        principal: "user/bob",
        action: "organizations:DescribeOrganization",
        resource: "*",
      })
    ).body.principal as string;
    // Both bundles cover sandbox-alice (one at the root, one at its OU) and both waive bob.
    const exits = await waivedBundle({
      key: "OVLPA2B",
      name: "No leaving the organisation",
      slug: "deny-leave-organization",
      scope: { externalId: root.externalId, name: "Root" },
      principalArn,
    });
    const billing = await waivedBundle({
      key: "OVLPB3C",
      name: "Billing settings stay central",
      slug: "protect-billing-settings",
      scope: { externalId: sandboxOu.externalId, name: "Sandbox" },
      principalArn,
    });
    const leave = await tryAction({
      provider: "aws",
      account: "sandbox-alice",
      principal: "user/bob",
      action: "organizations:LeaveOrganization",
      resource: "*",
    });
    expect(leave.status).toBe(200);
    const modify = await tryAction({
      provider: "aws",
      account: "sandbox-alice",
      principal: "user/bob",
      action: "aws-portal:ModifyBilling",
      resource: "*",
    });
    expect(modify.status).toBe(200);
    // The organisation trail delivers both calls about a second later.
    await fetchUntil(
      async () => {
        await fetchEvents();
        return [...(await eventTypesOf(exits.bundle.id)), ...(await eventTypesOf(billing.bundle.id))];
      },
      (events) => events.length >= 2,
    );

    // Each action is waived by the one bundle whose policy it would have broken.
    expect(await eventTypesOf(exits.bundle.id)).toEqual([
      { type: EventType.WAIVED, action: "organizations:LeaveOrganization", key: "OVLPA2B" },
    ]);
    expect(await eventTypesOf(billing.bundle.id)).toEqual([
      { type: EventType.WAIVED, action: "aws-portal:ModifyBilling", key: "OVLPB3C" },
    ]);
    const { summary } = await server
      .client(PolicyEventStoreService, viewer)
      .summary({ filter: { policyId: billing.bundle.id } });
    expect(summary?.waivers).toBe(1);
  });

  it(`exports ${EXPORT_ROWS.toLocaleString("en")} events as CSV with bounded heap growth`, async () => {
    const [bundle] = await db()
      .insert(bundles)
      .values({
        tenantId,
        key: "BULKX4D",
        name: "Bulk export policy",
        policySlug: "deny-leave-organization",
        provider: "aws",
        mode: "ALERT",
        status: "DEPLOYED",
        scopes: [],
        createdBy: "test",
      })
      .returning();
    const [deployment] = await db()
      .insert(deployments)
      .values({
        tenantId,
        bundleId: bundle!.id,
        key: "BULKX4D",
        connectorId: awsConnector.id,
        scope: { externalId: "123456789012", name: "bulk" },
        scopeExternalId: "123456789012",
        mode: "ALERT",
        status: "DEPLOYED",
        policySlug: "deny-leave-organization",
        name: "Bulk export policy",
        createdBy: "test",
      })
      .returning();
    // One statement: the export is under test here, not ingest.
    await db().execute(sql`
      insert into policy_events (tenant_id, provider_event_id, type, cloud_provider, deployment_id, bundle_id,
        deployment_name, resource_external_id, resource_native_type, resource_scope, resource_name,
        user_identifier, user_name, occurred_at, audits)
      select ${tenantId}, 'bulk-' || i, case when i % 4 = 0 then 'ALERT' else 'PREVENTION' end, 'AWS',
        ${deployment!.id}, ${bundle!.id}, 'Bulk export policy with a fairly long display name',
        'arn:aws:s3:::bulk-bucket-' || (i % 500), 'AWS::S3::Bucket', '123456789012', 'bulk-bucket-' || (i % 500),
        'arn:aws:iam::123456789012:user/user-' || (i % 50), 'user-' || (i % 50),
        timestamptz '2026-02-01T00:00:00Z' + make_interval(secs => i),
        jsonb_build_array(jsonb_build_object('id', 'bulk-' || i, 'action', 's3:PutBucketPolicy'))
      from generate_series(1, ${EXPORT_ROWS}) as i`);
    const client = server.client(PolicyEventStoreService, viewer);
    const filter = { policyId: bundle!.id };

    gc();
    const baseline = process.memoryUsage().heapUsed;
    let peak = baseline;
    const sampler = setInterval(() => {
      gc();
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }, 1000);
    // The embedded database runs on this thread: while the bulk insert ran, the server may have
    // closed the client's idle keep-alive socket, so the first call may meet a reset once.
    const started = await client
      .exportAsync({ filter, format: ExportFormat.CSV })
      .catch(() => client.exportAsync({ filter, format: ExportFormat.CSV }));
    const progress: number[] = [];
    let status = await client.getExportStatus({ jobId: started.jobId });
    for (let i = 0; i < 1200 && status.status !== ExportStatus.SUCCEEDED; i += 1) {
      expect(status.status).not.toBe(ExportStatus.FAILED);
      progress.push(status.progress);
      await new Promise((r) => setTimeout(r, 100));
      status = await client.getExportStatus({ jobId: started.jobId });
    }
    clearInterval(sampler);
    gc();
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    expect(status.status).toBe(ExportStatus.SUCCEEDED);
    expect(status.progress).toBe(100);
    expect(status.rows).toBe(EXPORT_ROWS);
    expect(progress.every((p, i) => i === 0 || p >= (progress[i - 1] ?? 0))).toBe(true);
    const growth = peak - baseline;
    expect(growth, `heap grew by ${Math.round(growth / 1024 / 1024)} MB`).toBeLessThan(HEAP_BOUND_BYTES);

    // The file holds every row, read as a stream.
    const link = new URL(started.presignedUrl);
    const response = await fetch(`${server.url}${link.pathname}${link.search}`);
    expect(response.status).toBe(200);
    let lines = 0;
    const decoder = new TextDecoder();
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      lines += decoder.decode(chunk, { stream: true }).split("\n").length - 1;
    }
    expect(lines).toBe(EXPORT_ROWS + 1);

    // Another tenant cannot read the export's progress.
    const other = await server.createTenant("Other exports");
    const outsider = (await server.addMember({ role: "ADMINISTRATOR", tenantId: other })).credentials;
    await expect(
      server.client(PolicyEventStoreService, outsider).getExportStatus({ jobId: started.jobId }),
    ).rejects.toThrow(/No such export/);
  }, 600_000);
});

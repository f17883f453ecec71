import { Code, ConnectError } from "@connectrpc/connect";
import { CloudProvider } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { DeploymentMode } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import {
  type ImpactPreview,
  ImpactPreviewStatus,
} from "@palisade/api/gen/palisade/deployment/v1/impact_preview_pb";
import { DEFAULT_ACTIVITY_LOG_LAG_MS } from "@palisade/sandbox-cloud/azure/activity-log";
import type { SandboxCloud } from "@palisade/sandbox-cloud/start-sandbox-cloud";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { advanceSandboxClock, node, tryAction, waitForBundleStatus } from "./support/deployment-helpers";
import { waitFor } from "./support/poll";
import { startSandboxServer } from "./support/sandbox-server";
import { engines } from "./support/test-database";
import type { Credentials, TestServer } from "./support/test-server";
import { fetchUntil } from "./support/trail-wait";

const REGIONS = "deny-regions-outside-allowlist";

/** What engineers did in the sandbox organisation over the period. */
const ACTIVITY = [
  // Workloads accounts, outside us-east-1: what the guardrail would deny.
  { account: "payments-prod", principal: "user/alice", action: "ec2:RunInstances", region: "ap-southeast-2" },
  { account: "payments-prod", principal: "user/bob", action: "ec2:RunInstances", region: "eu-west-1" },
  // A management event: the organisation trail records management events, not S3's data events.
  {
    account: "storefront-prod",
    principal: "role/ci-deployer",
    action: "s3:CreateBucket",
    region: "eu-central-1",
  },
  { account: "payments-prod", principal: "user/alice", action: "ec2:RunInstances", region: "ap-southeast-2" },
  // Allowed region, and a global service the policy exempts.
  { account: "payments-dev", principal: "user/alice", action: "ec2:DescribeInstances", region: "us-east-1" },
  { account: "storefront-dev", principal: "user/carol", action: "iam:CreateUser", region: "eu-west-1" },
  // Outside the Workloads OU.
  { account: "sandbox-alice", principal: "user/alice", action: "ec2:RunInstances", region: "ap-southeast-2" },
];

describe.each(engines)("impact preview on %s", (engine) => {
  let server: TestServer;
  let admin: Credentials;
  let sandbox: SandboxCloud;
  let tenantId: string;
  const db = () => server.palisade.database.db;
  const manager = (credentials = admin) => server.client(DeploymentManagerService, credentials);
  // The preview reads what Palisade stored; it fetches the connector's newest records first.
  const act = (activity: readonly Record<string, unknown>[] = ACTIVITY) =>
    Promise.all(activity.map((a) => tryAction(sandbox, { provider: "aws", resource: "*", ...a })));

  beforeAll(async () => {
    ({
      server,
      sandbox,
      tenantId,
      members: { admin },
    } = await startSandboxServer({
      engine,
      members: { admin: { role: "ADMINISTRATOR", name: "Ada Admin" } },
    }));
  });
  afterAll(async () => {
    await server?.stop();
  });

  async function workloads() {
    const ou = await node(db(), tenantId, "Workloads");
    return [{ externalId: ou.externalId, connectorId: ou.connectorId, provider: CloudProvider.AWS }];
  }

  async function finished(id: string, credentials = admin): Promise<ImpactPreview> {
    return waitFor(
      `impact preview ${id} to finish`,
      async () => {
        const { preview } = await manager(credentials).getImpactPreview({ id });
        return preview &&
          (preview.status === ImpactPreviewStatus.SUCCEEDED || preview.status === ImpactPreviewStatus.FAILED)
          ? preview
          : undefined;
      },
      60_000,
    );
  }

  let predicted = 0;

  it("reports what the guardrail would have denied over the last 30 days, and answers it again from the cache", async () => {
    const done = await act();
    expect(done.map((r) => r.status)).toEqual(ACTIVITY.map(() => 200));
    const viewer = (await server.addMember({ role: "VIEWER" })).credentials;
    const request = {
      policySlug: REGIONS,
      parameters: { allowed_regions: ["us-east-1"] },
      scopes: await workloads(),
    };
    const { preview: started } = await manager(viewer).startImpactPreview(request);
    expect(started?.periodDays).toBe(30);
    // The organisation trail delivers the calls' log files about a second later, each account's
    // and region's file on its own: the preview is run again until it has read every call, not
    // only the ones it would deny.
    const [preview] = await fetchUntil(
      async () => {
        const { preview: again } = await manager().startImpactPreview({ ...request, refresh: true });
        return [await finished(again?.id ?? started?.id ?? "", viewer)];
      },
      ([p]) => (p?.recordsEvaluated ?? 0) >= ACTIVITY.length && (p?.deniedCount ?? 0) >= 4,
    );
    if (!preview) throw new Error("no preview");
    expect(preview.error).toBe("");
    expect(preview.status).toBe(ImpactPreviewStatus.SUCCEEDED);
    expect(preview.recordsEvaluated).toBeGreaterThanOrEqual(ACTIVITY.length);
    expect(preview.deniedCount).toBe(4);
    expect(preview.alreadyDeniedCount).toBe(0);
    expect(preview.distinctPrincipals).toBe(3);
    expect(preview.topActions[0]).toMatchObject({ value: "ec2:RunInstances", count: 3 });
    expect(preview.topScopes[0]).toMatchObject({ name: "payments-prod", count: 3 });
    expect(preview.topPrincipals.map((p) => p.value.split("/").pop())).toContain("alice");
    // One sample per distinct request: alice's two launches in ap-southeast-2 are one.
    expect(preview.samples).toHaveLength(3);
    expect(
      preview.samples.every((s) => s.scopeName === "payments-prod" || s.scopeName === "storefront-prod"),
    ).toBe(true);
    expect(preview.periodStart && preview.periodEnd).toBeTruthy();
    const days =
      (Number(preview.periodEnd?.seconds ?? 0n) - Number(preview.periodStart?.seconds ?? 0n)) / 86_400;
    expect(Math.round(days)).toBe(30);
    expect(preview.notEvaluableCount).toBe(0);
    expect(preview.limitations.join(" ")).toMatch(/management account are not counted/);

    // The same request is answered from the cache while it is recent; refresh replays it.
    const { preview: again } = await manager().startImpactPreview(request);
    expect(again?.id).toBe(preview.id);
    expect(again?.status).toBe(ImpactPreviewStatus.SUCCEEDED);
    expect(again?.deniedCount).toBe(4);
    const { preview: refreshed } = await manager().startImpactPreview({ ...request, refresh: true });
    expect(refreshed?.id).toBe(preview.id);
    expect(refreshed?.status).toBe(ImpactPreviewStatus.QUEUED);
    expect((await finished(preview.id)).deniedCount).toBe(4);
    predicted = preview.deniedCount;
  }, 120_000);

  it("predicts exactly the denials the sandbox produces once the policy is deployed", async () => {
    const { bundle } = await manager().createBundle({
      name: "Approved regions only",
      policySlug: REGIONS,
      parameters: { allowed_regions: ["us-east-1"] },
      scopes: await workloads(),
      mode: DeploymentMode.PREVENT,
      isVisible: true,
    });
    const deployed = await waitForBundleStatus(
      db(),
      bundle?.entity?.id ?? "",
      ["DEPLOYED", "FAILED"],
      60_000,
    );
    expect(deployed.status).toBe("DEPLOYED");
    const key = bundle?.key ?? "";

    const replayed = await act();
    const denied = replayed.filter((r) => r.status === 403 && (r.body.policy?.sid ?? "").includes(key));
    expect(denied).toHaveLength(predicted);
    expect(replayed.filter((r) => r.status === 403)).toHaveLength(predicted);

    // Now deployed, the guardrail denies these requests already: a new preview counts nothing new.
    // Once the trail has delivered the replayed calls.
    const [after] = await fetchUntil(
      async () => {
        const { preview } = await manager().startImpactPreview({
          policySlug: REGIONS,
          parameters: { allowed_regions: ["us-east-1"] },
          scopes: await workloads(),
          refresh: true,
        });
        return [await finished(preview?.id ?? "")];
      },
      ([p]) => (p?.alreadyDeniedCount ?? 0) >= 2 * predicted,
    );
    if (!after) throw new Error("no preview");
    expect(after.deniedCount).toBe(0);
    expect(after.alreadyDeniedCount).toBe(2 * predicted);
  }, 120_000);

  it("names the requests it cannot evaluate, never counting them as allowed", async () => {
    // Who may open the serial console is a principal tag, which CloudTrail does not record.
    const activity = ["payments-prod", "payments-dev"].map((account, i) => ({
      account,
      principal: i === 0 ? "user/alice" : "user/bob",
      action: "ec2:EnableSerialConsoleAccess",
      region: "us-east-1",
    }));
    const done = await act(activity);
    expect(done.map((r) => r.status)).toEqual([200, 200]);
    const request = { policySlug: "deny-ec2-serial-console-access", scopes: await workloads() };
    // Run again until the organisation trail has delivered the calls' log files.
    const [result] = await fetchUntil(
      async () => {
        const { preview } = await manager().startImpactPreview({ ...request, refresh: true });
        return [await finished(preview?.id ?? "")];
      },
      ([p]) => (p?.notEvaluableCount ?? 0) >= 2,
    );
    if (!result) throw new Error("no preview");
    expect(result.error).toBe("");
    expect(result.deniedCount).toBe(0);
    expect(result.notEvaluableCount).toBe(2);
    expect(result.topNotEvaluable).toEqual([
      expect.objectContaining({ value: "ec2:EnableSerialConsoleAccess", count: 2 }),
    ]);
    expect(result.limitations.join(" ")).toMatch(
      /Not evaluable: 2 requests .*the records do not tell aws:principaltag\/serialconsoleadmin/,
    );

    // Deployed, the guardrail denies what the preview could not evaluate: it had not called them allowed.
    const { bundle } = await manager().createBundle({
      name: "No serial console",
      policySlug: "deny-ec2-serial-console-access",
      scopes: await workloads(),
      mode: DeploymentMode.PREVENT,
      isVisible: true,
    });
    const deployed = await waitForBundleStatus(
      db(),
      bundle?.entity?.id ?? "",
      ["DEPLOYED", "FAILED"],
      60_000,
    );
    expect(deployed.status).toBe("DEPLOYED");
    const again = await act(activity);
    const denied = again.filter(
      (r) => r.status === 403 && (r.body.policy?.sid ?? "").includes(bundle?.key ?? "?"),
    );
    expect(denied).toHaveLength(result.deniedCount + result.notEvaluableCount);
  }, 60_000);

  it("on Azure, counts the writes whose records do not carry what the rule reads as not evaluable, and says so", async () => {
    const sub = await node(db(), tenantId, "corp-prod");
    const rg = `${sub.externalId}/resourceGroups/rg-corp-prod-app`;
    for (const [name, https] of [
      ["stpreviewone", false],
      ["stpreviewtwo", true],
    ] as const) {
      const done = await tryAction(sandbox, {
        provider: "azure",
        principal: "alice",
        action: "write",
        resource: `${rg}/providers/Microsoft.Storage/storageAccounts/${name}`,
        context: {
          kind: "StorageV2",
          "sku.name": "Standard_LRS",
          "properties.supportsHttpsTrafficOnly": https,
        },
      });
      expect(done.status).toBe(200);
    }
    // The Activity Log lists the writes once submitted.
    await advanceSandboxClock(sandbox, DEFAULT_ACTIVITY_LOG_LAG_MS / 1000);
    const { preview } = await manager().startImpactPreview({
      policySlug: "storage-accounts-https-only",
      scopes: [{ externalId: sub.externalId, connectorId: sub.connectorId, provider: CloudProvider.AZURE }],
      periodDays: 7,
    });
    const done = await finished(preview?.id ?? "");
    expect(done.error).toBe("");
    expect(done.periodDays).toBe(7);
    expect(done.deniedCount).toBe(0);
    expect(done.notEvaluableCount).toBe(2);
    expect(done.limitations.join(" ")).toMatch(/2 writes under these scopes could not be evaluated/);
    expect(done.limitations.join(" ")).toMatch(/not the request body/);
    expect(done.limitations.join(" ")).toMatch(/resources that exist today were not evaluated/);
  }, 60_000);

  it("refuses scopes of the other cloud, unknown policies and other tenants' previews", async () => {
    const sub = await node(db(), tenantId, "corp-prod");
    const wrongCloud = await manager()
      .startImpactPreview({
        policySlug: REGIONS,
        scopes: [{ externalId: sub.externalId, provider: CloudProvider.AZURE }],
      })
      .catch((e) => ConnectError.from(e));
    expect(wrongCloud).toBeInstanceOf(ConnectError);
    expect((wrongCloud as ConnectError).code).toBe(Code.InvalidArgument);
    expect((wrongCloud as ConnectError).rawMessage).toMatch(/AZURE scope/);

    const unknown = await manager()
      .startImpactPreview({ policySlug: "no-such-policy", scopes: await workloads() })
      .catch((e) => ConnectError.from(e));
    expect((unknown as ConnectError).code).toBe(Code.InvalidArgument);

    const { preview } = await manager().startImpactPreview({
      policySlug: REGIONS,
      parameters: { allowed_regions: ["us-east-1"] },
      scopes: await workloads(),
    });
    const otherTenant = await server.createTenant("Elsewhere");
    const outsider = (await server.addMember({ role: "ADMINISTRATOR", tenantId: otherTenant })).credentials;
    const hidden = await manager(outsider)
      .getImpactPreview({ id: preview?.id ?? "" })
      .catch((e) => ConnectError.from(e));
    expect((hidden as ConnectError).code).toBe(Code.NotFound);
  }, 60_000);
});

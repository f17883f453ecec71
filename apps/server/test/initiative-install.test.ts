import { EnablePolicyTypeCommand, ListRootsCommand } from "@aws-sdk/client-organizations";
import { Code } from "@connectrpc/connect";
import { CloudProvider, ErrorDetailSchema } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { DeploymentMode, DeploymentStatus } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { InitiativeService } from "@palisade/api/gen/palisade/initiative/v1/initiative_pb";
import { PolicyService } from "@palisade/api/gen/palisade/policy/v1/policy_pb";
import { DEFAULT_SCP_LIMITS, keyOfSid } from "@palisade/policy-engine/compilers/aws/pack-scps";
import type { SandboxCloud } from "@palisade/sandbox-cloud/start-sandbox-cloud";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AwsCloudProvider } from "../src/cloud/cloud-provider";
import { enqueueBundleSync } from "../src/jobs/bundle-sync-job";
import { connectors } from "../src/modules/connector/connector-schema";
import { waivers } from "../src/modules/waiver/waiver-schema";
import { errorOf } from "./support/call-error";
import { deploymentRows, node, tryAction } from "./support/deployment-helpers";
import { finishedJob } from "./support/job-wait";
import { waitFor } from "./support/poll";
import { sandboxOrganizations } from "./support/sandbox-aws-clients";
import { startSandboxServer } from "./support/sandbox-server";
import { engines } from "./support/test-database";
import type { Credentials, TestServer } from "./support/test-server";

const CIS_AWS = "cis-aws-foundations-3.0.0";

/** Three guardrails of the initiative and an action each of them denies. */
const GUARDRAILS = [
  { slug: "deny-default-vpc-creation", action: "ec2:CreateDefaultVpc" },
  { slug: "protect-cloudtrail", action: "cloudtrail:StopLogging" },
  { slug: "protect-vpc-flow-logs", action: "ec2:DeleteFlowLogs" },
];

describe.each(engines)("initiative install on %s", (engine) => {
  let server: TestServer;
  let admin: Credentials;
  let viewer: Credentials;
  let sandbox: SandboxCloud;
  let tenantId: string;
  const db = () => server.palisade.database.db;
  const client = (credentials = admin) => server.client(InitiativeService, credentials);
  const tryIn = (account: string, action: string) =>
    tryAction(sandbox, { provider: "aws", account, principal: "user/alice", action, resource: "*" });

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
    // The CIS initiative includes a declarative EC2 guardrail: the organisation enables the policy
    // type first, as its own decision (https://docs.aws.amazon.com/organizations/latest/APIReference/API_EnablePolicyType.html).
    const organizations = sandboxOrganizations(sandbox);
    const rootId = (await organizations.send(new ListRootsCommand({}))).Roots?.[0]?.Id;
    await organizations.send(
      new EnablePolicyTypeCommand({ RootId: rootId, PolicyType: "DECLARATIVE_POLICY_EC2" }),
    );
  });
  afterAll(async () => {
    await server?.stop();
  });

  let keys = new Map<string, string>();
  let bundleIds = new Map<string, string>();
  let jobId = "";

  it("refuses viewers, unknown clauses and scopes before creating anything", async () => {
    const prod = await node(db(), tenantId, "Workloads-Prod");
    const scopes = [{ externalId: prod.externalId, provider: CloudProvider.AWS }];
    const denied = await errorOf(
      client(viewer).installInitiative({ slug: CIS_AWS, scopes, mode: DeploymentMode.PREVENT }),
    );
    expect(denied.code).toBe(Code.PermissionDenied);
    const wrong = await errorOf(
      client().installInitiative({
        slug: CIS_AWS,
        scopes: [...scopes, { externalId: "ou-zzzz-99999999", provider: CloudProvider.AWS }],
        mode: DeploymentMode.PREVENT,
        clauseIds: ["99.99"],
      }),
    );
    expect(wrong.code).toBe(Code.InvalidArgument);
    const fields = wrong.findDetails(ErrorDetailSchema)[0]?.fieldViolations.map((f) => f.field);
    expect(fields).toEqual(["scopes[1]", "clause_ids"]);
    expect(
      (await client().getInitiative({ lookup: { case: "slug", value: CIS_AWS } })).initiative,
    ).toMatchObject({ installedPoliciesCount: 0, deployedScopes: [] });
  });

  it("installs the CIS AWS initiative on Workloads-Prod in PREVENT: every policy DEPLOYED within the SCP quota", async () => {
    const prod = await node(db(), tenantId, "Workloads-Prod");
    const started = performance.now();
    const response = await client().installInitiative({
      slug: CIS_AWS,
      scopes: [{ externalId: prod.externalId, provider: CloudProvider.AWS }],
      mode: DeploymentMode.PREVENT,
    });
    const initiative = (await client().getInitiative({ lookup: { case: "slug", value: CIS_AWS } }))
      .initiative;
    expect(response.bundles).toHaveLength(initiative?.policiesCount ?? -1);
    expect(response.skippedPolicySlugs).toEqual([]);
    expect(response.bundles.every((b) => b.namespace === CIS_AWS)).toBe(true);
    jobId = response.jobId;
    keys = new Map(response.bundles.map((b) => [b.policySlug, b.key]));
    bundleIds = new Map(response.bundles.map((b) => [b.policySlug, b.entity?.id ?? ""]));

    const progress = await waitFor(
      "every bundle of the install to finish",
      async () => {
        const got = await client(viewer).getInitiativeInstall({ jobId });
        return got.finished ? got : undefined;
      },
      60_000,
    );
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `initiative install: ${progress.total} bundles to DEPLOYED in ${seconds.toFixed(2)} s (${engine})`,
    );
    expect(progress.bundles.filter((b) => b.status !== DeploymentStatus.DEPLOYED)).toEqual([]);
    expect(progress).toMatchObject({
      total: response.bundles.length,
      deployed: response.bundles.length,
      failed: 0,
    });
    const record = await finishedJob(db(), jobId);
    expect(record).toMatchObject({ kind: "initiative.install", status: "SUCCEEDED", progress: 100 });

    const attached = await (await awsProvider()).listTargetScps(prod.externalId);
    expect(attached.length).toBeLessThanOrEqual(DEFAULT_SCP_LIMITS.perTarget);
    const packs = attached.filter((p) => p.name.startsWith(`palisade-${prod.externalId}-`));
    const sizes = [];
    for (const pack of packs) sizes.push((await (await awsProvider()).readScpContent(pack.id)).length);
    console.log(
      `Workloads-Prod SCPs: ${attached.length} (${packs.length} packed: ${sizes.join(", ")} characters)`,
    );
    for (const size of sizes) expect(size).toBeLessThanOrEqual(DEFAULT_SCP_LIMITS.characters);

    const after = (await client().getInitiative({ lookup: { case: "slug", value: CIS_AWS } })).initiative;
    expect(after?.installedPoliciesCount).toBe(after?.policiesCount);
    expect(after?.deployedScopes).toEqual([
      expect.objectContaining({ name: "Workloads-Prod", policiesCount: after?.policiesCount }),
    ]);
    // Installing again creates nothing: every policy is already deployed there.
    const again = await client().installInitiative({
      slug: CIS_AWS,
      scopes: [{ externalId: prod.externalId, provider: CloudProvider.AWS }],
      mode: DeploymentMode.PREVENT,
    });
    expect(again.bundles).toEqual([]);
    expect(again.skipped.map((s) => s.reason)).toEqual(
      response.bundles.map(() => "already deployed to these scopes"),
    );
  });

  it("denies an action of each of three guardrails with a statement carrying that guardrail's key", async () => {
    for (const { slug, action } of GUARDRAILS) {
      const denied = await tryIn("payments-prod", action);
      expect(denied.status, `${action} in payments-prod`).toBe(403);
      expect(keyOfSid((denied.body.policy as { sid?: string } | undefined)?.sid)).toBe(keys.get(slug));
      // The public waiver page finds the same key from the deny message, which names the shared SCP.
      const resolved = await server
        .client(PolicyService)
        .resolvePolicyKey({ text: denied.body.error?.Message ?? "" });
      expect(resolved.key).toBe(keys.get(slug));
      // Outside the OU the same action goes through.
      expect((await tryIn("payments-dev", action)).status).toBe(200);
    }
  });

  it("applies a waiver to its own guardrail only, inside the shared SCP", async () => {
    const account = await node(db(), tenantId, "payments-prod");
    const bundleKey = keys.get("protect-cloudtrail") ?? "";
    const [deployment] = await deploymentRows(db(), bundleIds.get("protect-cloudtrail") ?? "");
    const [waiver] = await db()
      .insert(waivers)
      .values({
        tenantId,
        deploymentId: deployment?.id ?? "",
        policyKey: bundleKey,
        createSource: "FORM",
        requesterName: "Alice",
        requesterIdentifier: "alice@example.com",
        comment: "rotate the trail",
        durationSeconds: 3600,
        expiresAt: new Date(Date.now() + 3600_000),
        scope: account.externalId,
        status: "ACTIVE",
        approvalType: "AUTO",
        deploymentStatus: "PENDING",
      })
      .returning();
    await enqueueBundleSync(server.palisade.jobs, {
      bundleId: deployment?.bundleId ?? "",
      tenantId,
      reason: "test waiver",
    });
    await waitFor("the waiver to reach the cloud", async () => {
      const [row] = await db()
        .select()
        .from(waivers)
        .where(eq(waivers.id, waiver?.id ?? ""));
      return row?.deploymentStatus === "ACTIVE" || undefined;
    });
    expect((await tryIn("payments-prod", "cloudtrail:StopLogging")).status).toBe(200);
    expect((await tryIn("storefront-prod", "cloudtrail:StopLogging")).status).toBe(403);
    // The other guardrails in the same SCP still deny the waived account.
    const other = await tryIn("payments-prod", "ec2:CreateDefaultVpc");
    expect(other.status).toBe(403);
    expect(keyOfSid((other.body.policy as { sid?: string } | undefined)?.sid)).toBe(
      keys.get("deny-default-vpc-creation"),
    );
  });
});

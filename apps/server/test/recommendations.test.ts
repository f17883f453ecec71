import { Code, type ConnectError } from "@connectrpc/connect";
import { CloudProvider, ErrorDetailSchema } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { DeploymentMode } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import {
  type Recommendation,
  RecommendationKind,
  RecommendationService,
  RecommendationSource,
} from "@palisade/api/gen/palisade/recommendation/v1/recommendation_pb";
import type { SandboxCloud } from "@palisade/sandbox-cloud/start-sandbox-cloud";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorOf } from "./support/call-error";
import { bundleRow, node, tryAction, waitForBundleStatus } from "./support/deployment-helpers";
import { startSandboxServer } from "./support/sandbox-server";
import { engines } from "./support/test-database";
import type { Credentials, TestServer } from "./support/test-server";
import { fetchUntil } from "./support/trail-wait";

const fieldsOf = (error: ConnectError) =>
  error.findDetails(ErrorDetailSchema)[0]?.fieldViolations.map((f) => f.field) ?? [];

describe.each(engines)("recommendations on %s", (engine) => {
  let server: TestServer;
  let admin: Credentials;
  let moderator: Credentials;
  let viewer: Credentials;
  let sandbox: SandboxCloud;
  let tenantId: string;
  const db = () => server.palisade.database.db;
  const client = (credentials = admin) => server.client(RecommendationService, credentials);

  async function open(credentials = admin): Promise<Recommendation[]> {
    return (await client(credentials).listRecommendations({ pagination: { limit: 200 } })).items;
  }
  async function archived(): Promise<Recommendation[]> {
    return (await client().listRecommendations({ archived: true, pagination: { limit: 200 } })).items;
  }
  const withPolicy = (items: Recommendation[], slug: string) =>
    items.filter((r) => r.policySlugs.includes(slug));

  beforeAll(async () => {
    ({
      server,
      sandbox,
      tenantId,
      members: { admin, moderator, viewer },
    } = await startSandboxServer({
      engine,
      members: {
        admin: { role: "ADMINISTRATOR", name: "Ada Admin" },
        moderator: "MODERATOR",
        viewer: "VIEWER",
      },
    }));
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("recommends the root-user and region guardrails on the production OU of the connected organisation", async () => {
    await client().refreshRecommendations({});
    const items = await open();
    const prod = await node(db(), tenantId, "Workloads-Prod");
    const rootUser = withPolicy(items, "deny-root-user-actions").find(
      (r) => r.kind === RecommendationKind.UNGUARDED_SCOPE,
    );
    expect(rootUser).toMatchObject({
      title: "Deny all actions by the root user of member accounts on Workloads-Prod",
      provider: CloudProvider.AWS,
      source: RecommendationSource.SYSTEM,
      suggestedMode: DeploymentMode.ALERT,
      archived: false,
      affectedResourcesCount: 2,
      suggestedScopes: [expect.objectContaining({ externalId: prod.externalId, name: "Workloads-Prod" })],
    });
    expect(rootUser?.description).toContain("Workloads-Prod looks like a production scope");
    expect(withPolicy(items, "deny-regions-outside-allowlist")).toHaveLength(1);
    // Nothing happened in the clouds yet: no recommendation from observed activity.
    expect(items.filter((r) => r.kind === RecommendationKind.OBSERVED_ACTIVITY)).toEqual([]);
  });

  it("recommends guardrails against the risky actions that happened in the sandbox cloud", async () => {
    const dev = await node(db(), tenantId, "payments-dev");
    const sandboxAccount = await node(db(), tenantId, "sandbox-alice");
    const bucket = `arn:aws:s3:::payments-dev-reports`;
    const acted = await Promise.all([
      tryAction(sandbox, {
        provider: "aws",
        account: dev.externalId,
        principal: "user/alice",
        action: "s3:PutBucketAcl",
        resource: bucket,
        context: { "s3:x-amz-acl": "public-read" },
      }),
      tryAction(sandbox, {
        provider: "aws",
        account: sandboxAccount.externalId,
        principal: "user/bob",
        action: "cloudtrail:StopLogging",
        resource: "*",
      }),
    ]);
    expect(acted.map((a) => a.status)).toEqual([200, 200]);

    // The organisation trail delivers the calls about a second later; the recomputation that
    // follows the event fetch may have found them already. Either way each is listed once.
    const items = await fetchUntil(
      async () => {
        await client().refreshRecommendations({});
        return open();
      },
      (all) =>
        withPolicy(all, "deny-s3-public-acls").length > 0 && withPolicy(all, "protect-cloudtrail").length > 0,
    );
    expect(withPolicy(items, "deny-s3-public-acls")).toHaveLength(1);
    expect(withPolicy(items, "protect-cloudtrail")).toHaveLength(1);
    const publicAcl = withPolicy(items, "deny-s3-public-acls")[0];
    expect(publicAcl).toMatchObject({
      kind: RecommendationKind.OBSERVED_ACTIVITY,
      title: "Block public S3 bucket ACLs",
      suggestedMode: DeploymentMode.ALERT,
      affectedResourcesCount: 1,
      suggestedScopes: [expect.objectContaining({ externalId: dev.externalId, name: "payments-dev" })],
    });
    expect(publicAcl?.description).toContain("1 call gave an S3 bucket a public ACL (`s3:PutBucketAcl`)");
    expect(publicAcl?.description).toContain("user/alice");
    const trail = withPolicy(items, "protect-cloudtrail")[0];
    expect(trail).toMatchObject({ kind: RecommendationKind.OBSERVED_ACTIVITY });
    expect(trail?.suggestedScopes.map((s) => s.name)).toEqual(["sandbox-alice"]);
    // Most urgent first.
    expect(items.map((r) => r.score)).toEqual([...items.map((r) => r.score)].sort((a, b) => b - a));
  });

  it("updates the same recommendations on a recompute instead of repeating them", async () => {
    const before = await open();
    const dev = await node(db(), tenantId, "payments-dev");
    await tryAction(sandbox, {
      provider: "aws",
      account: dev.externalId,
      principal: "user/carol",
      action: "s3:PutBucketAcl",
      resource: "arn:aws:s3:::payments-dev-exports",
      context: { "s3:x-amz-acl": "public-read-write" },
    });
    let outcome: Awaited<ReturnType<ReturnType<typeof client>["refreshRecommendations"]>> | undefined;
    const after = await fetchUntil(
      async () => {
        outcome = await client().refreshRecommendations({});
        return open();
      },
      (all) => withPolicy(all, "deny-s3-public-acls")[0]?.affectedResourcesCount === 2,
    );
    expect(outcome).toMatchObject({ created: 0, removed: 0 });
    expect(after.map((r) => r.entity?.id).sort()).toEqual(before.map((r) => r.entity?.id).sort());
    const publicAcl = withPolicy(after, "deny-s3-public-acls")[0];
    expect(publicAcl?.affectedResourcesCount).toBe(2);
    expect(publicAcl?.description).toContain("2 calls gave an S3 bucket a public ACL");
  });

  it("archives and unarchives with confirmation of the change; an archived one is not re-created", async () => {
    const trail = withPolicy(await open(), "protect-cloudtrail")[0];
    const id = trail?.entity?.id ?? "";
    expect((await errorOf(client(viewer).archiveRecommendation({ id }))).code).toBe(Code.PermissionDenied);
    const done = await client(moderator).archiveRecommendation({ id });
    expect(done.recommendation?.archived).toBe(true);
    expect(withPolicy(await open(), "protect-cloudtrail")).toEqual([]);
    expect(withPolicy(await archived(), "protect-cloudtrail").map((r) => r.entity?.id)).toEqual([id]);

    await client().refreshRecommendations({});
    expect(withPolicy(await open(), "protect-cloudtrail")).toEqual([]);
    expect(withPolicy(await archived(), "protect-cloudtrail")).toHaveLength(1);

    const back = await client(moderator).unarchiveRecommendation({ id });
    expect(back.recommendation?.archived).toBe(false);
    expect(withPolicy(await open(), "protect-cloudtrail").map((r) => r.entity?.id)).toEqual([id]);
    expect((await client(viewer).getRecommendation({ id })).recommendation?.title).toBe(trail?.title);
  });

  it("installs a recommendation: its policy deployed to its suggested scope, then it is archived as installed", async () => {
    const rootUser = withPolicy(await open(), "deny-root-user-actions")[0];
    const id = rootUser?.entity?.id ?? "";
    expect((await errorOf(client(moderator).installRecommendation({ id }))).code).toBe(Code.PermissionDenied);
    const installed = await client().installRecommendation({ id });
    expect(installed.bundles).toHaveLength(1);
    const bundle = installed.bundles[0];
    expect(bundle).toMatchObject({ policySlug: "deny-root-user-actions", mode: DeploymentMode.ALERT });
    expect(bundle?.scopes.map((s) => s.name)).toEqual(["Workloads-Prod"]);
    await waitForBundleStatus(db(), bundle?.entity?.id ?? "", ["DEPLOYED"]);
    expect(installed.recommendation).toMatchObject({
      archived: true,
      installedBundleIds: [bundle?.entity?.id],
    });
    expect(installed.recommendation?.installedAt).toBeDefined();
    expect((await errorOf(client().installRecommendation({ id }))).rawMessage).toContain("already installed");
    expect(withPolicy(await open(), "deny-root-user-actions")).toEqual([]);
  });

  it("recommends the uncovered clauses of a framework the tenant now follows", async () => {
    await client().refreshRecommendations({});
    const gaps = (await open()).filter((r) => r.kind === RecommendationKind.FRAMEWORK_GAP);
    const cloudTrailClause = gaps.find(
      (r) => r.policySlugs.includes("protect-cloudtrail") && r.title.startsWith("CIS"),
    );
    expect(cloudTrailClause).toBeDefined();
    expect(cloudTrailClause?.provider).toBe(CloudProvider.AWS);
    expect(cloudTrailClause?.description).toContain("is not covered by any deployed policy");
    // Deployed on Workloads-Prod: the framework's other policies are suggested there.
    expect(cloudTrailClause?.suggestedScopes.map((s) => s.name)).toEqual(["Workloads-Prod"]);
    // The clause the installed policy covers is not a gap.
    expect(gaps.filter((r) => r.policySlugs.includes("deny-root-user-actions"))).toEqual([]);
    // The installed recommendation stays installed and is not re-created.
    expect(withPolicy(await open(), "deny-root-user-actions")).toEqual([]);
  });

  it("adds a recommendation by hand, with every mistake named beside its field", async () => {
    const wrong = await errorOf(
      client(moderator).addRecommendation({
        title: "   ",
        provider: CloudProvider.AWS,
        policySlugs: ["no-such-policy", "storage-accounts-https-only"],
      }),
    );
    expect(wrong.code).toBe(Code.InvalidArgument);
    expect(fieldsOf(wrong)).toEqual(["title", "policy_slugs", "policy_slugs"]);
    expect(wrong.rawMessage).toContain('"no-such-policy" is not a policy of the catalogue');
    expect(wrong.rawMessage).toContain("is an Azure policy");
    const none = await errorOf(
      client().addRecommendation({ title: "x".repeat(121), provider: CloudProvider.AZURE, policySlugs: [] }),
    );
    expect(fieldsOf(none)).toEqual(["title", "policy_slugs"]);
    expect(none.rawMessage).toContain("at most 120 characters");
    const long = await errorOf(
      client().addRecommendation({
        title: "Long",
        description: "x".repeat(5001),
        provider: CloudProvider.AWS,
        policySlugs: ["deny-kms-key-deletion"],
      }),
    );
    expect(long.code).toBe(Code.InvalidArgument);
    expect(long.rawMessage).toContain("description");

    const dev = await node(db(), tenantId, "Workloads-Dev");
    const added = await client(moderator).addRecommendation({
      title: "  Keep the payments team KMS keys  ",
      description: "Deleting a **KMS key** destroys the data it encrypts.",
      provider: CloudProvider.AWS,
      policySlugs: ["deny-kms-key-deletion"],
      scopes: [{ externalId: dev.externalId, provider: CloudProvider.AWS }],
    });
    expect(added.recommendation).toMatchObject({
      title: "Keep the payments team KMS keys",
      source: RecommendationSource.MANUAL,
      kind: RecommendationKind.MANUAL,
      suggestedScopes: [expect.objectContaining({ name: "Workloads-Dev" })],
    });
    expect(added.recommendation?.createdBy).not.toBe("");
    await client().refreshRecommendations({});
    const search = await client(viewer).listRecommendations({ search: "PAYMENTS TEAM" });
    expect(search.items.map((r) => r.entity?.id)).toEqual([added.recommendation?.entity?.id]);
  });

  it("marks a recommendation installed by bundles deployed from the policy form, only with its own policies", async () => {
    const manual = (await client().listRecommendations({ search: "PAYMENTS TEAM" })).items[0];
    const id = manual?.entity?.id ?? "";
    const rootBundle = withPolicy(await archived(), "deny-root-user-actions")[0]?.installedBundleIds[0] ?? "";
    expect(await bundleRow(db(), rootBundle)).toBeDefined();
    const mismatch = await errorOf(client().markRecommendationInstalled({ id, bundleIds: [rootBundle] }));
    expect(mismatch.code).toBe(Code.InvalidArgument);
    expect(mismatch.rawMessage).toContain("none of these bundles deploys a policy of");
    const missing = await errorOf(client().markRecommendationInstalled({ id, bundleIds: ["nope"] }));
    expect(fieldsOf(missing)).toEqual(["bundle_ids[0]"]);

    const installed = await client().installRecommendation({ id, mode: DeploymentMode.ALERT });
    const bundleId = installed.bundles[0]?.entity?.id ?? "";
    const again = await client().markRecommendationInstalled({ id, bundleIds: [bundleId] });
    expect(again.recommendation).toMatchObject({ archived: true, installedBundleIds: [bundleId] });
  });

  it("keeps tenants apart", async () => {
    const otherTenant = await server.createTenant("Other recommendations");
    const outsider = (await server.addMember({ role: "ADMINISTRATOR", tenantId: otherTenant })).credentials;
    const id = (await open())[0]?.entity?.id ?? "";
    expect(id).not.toBe("");
    expect((await errorOf(client(outsider).getRecommendation({ id }))).code).toBe(Code.NotFound);
    expect((await errorOf(client(outsider).archiveRecommendation({ id }))).code).toBe(Code.NotFound);
    expect((await errorOf(client(outsider).installRecommendation({ id }))).code).toBe(Code.NotFound);
    await client(outsider).refreshRecommendations({});
    expect(await open(outsider)).toEqual([]);
    expect((await client(outsider).listRecommendations({ archived: true })).items).toEqual([]);
  });
});

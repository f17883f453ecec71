import { DescribePolicyCommand } from "@aws-sdk/client-organizations";
import { Code } from "@connectrpc/connect";
import {
  CloudProvider,
  ErrorDetailSchema,
  ProductErrorCode,
  ScopeType,
} from "@palisade/api/gen/palisade/common/v1/common_pb";
import { ConnectorStatus } from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import { ConnectorService } from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { DeploymentMode } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { WaiverApprovalMode, WaiverStatus } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { WaiverService } from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import { parseCatalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import { readCatalogueFiles } from "@palisade/policy-engine/catalogue/read-catalogue-files";
import { compileScp } from "@palisade/policy-engine/compilers/aws/compile-scp";
import { guardrailStatements } from "@palisade/policy-engine/compilers/aws/pack-scps";
import { waiverWindowEnd } from "@palisade/policy-engine/compilers/aws/waiver-window";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectors } from "../src/modules/connector/connector-schema";
import { bundles, deployments } from "../src/modules/deployment/deployment-schema";
import { waivers } from "../src/modules/waiver/waiver-schema";
import { errorOf } from "./support/call-error";
import { flatten, scpsNamed, tryAction, waitForBundleStatus } from "./support/deployment-helpers";
import { waitFor } from "./support/poll";
import { sandboxOrganizations } from "./support/sandbox-aws-clients";
import { ADMIN_AND_REQUESTER, startSandboxServer } from "./support/sandbox-server";
import { cloudEvaluationEngines } from "./support/test-database";
import type { Credentials, TestServer } from "./support/test-server";

const SLUG = "protect-s3-account-public-access-block";
const ACTION = "s3:PutAccountPublicAccessBlock";
const HOUR_SECONDS = 3_600n;
/** Waivers the test's SCP quota leaves room for, all in one window. */
const ROOM = 4;
/** Principals every sandbox account has, longest ARN first (roles are written with a path wildcard). */
const PRINCIPALS = [
  "role/data-pipeline",
  "role/ci-deployer",
  "role/Developer",
  "role/ReadOnly",
  "role/Admin",
  "user/alice",
  "user/carol",
  "user/dave",
  "user/bob",
];

/** Characters the guardrail's packed statements take with these principals waived in one window. */
function packedLength(account: string, principals: string[]): number {
  const catalogue = parseCatalogue(readCatalogueFiles());
  const definition = catalogue.bySlug.get(SLUG)!;
  const now = new Date();
  const expiresAt = waiverWindowEnd(now, 3_600_000);
  const content = compileScp({
    definition,
    definitions: catalogue.bySlug,
    parameters: {},
    mode: "PREVENT",
    key: "7KQ2M9X",
    name: "capacity",
    scopes: [{ id: account }],
    excludedScopes: [],
    waivers: principals.map((principalArn, i) => ({ id: `w${i}`, key: "7KQ2M9X", expiresAt, principalArn })),
    waiverLinkBaseUrl: "https://palisade.example.com",
    now,
    scpMaxCharacters: Number.MAX_SAFE_INTEGER,
  }).content;
  return guardrailStatements({ key: "7KQ2M9X", slug: SLUG, content }).join(",").length;
}

// An SCP holds at most 10,240 characters by default
// (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_reference_limits.html). Here the
// connector's quota is set so that the guardrail has room for exactly ROOM principal waivers in one
// window, and every waiver Palisade acknowledges must then be enforced by the sandbox.
describe.each(cloudEvaluationEngines)(
  "waivers that fit their SCP, with the sandbox cloud on %s",
  (engine) => {
    let server: TestServer;
    let admin: Credentials;
    let sandbox: NonNullable<TestServer["palisade"]["cloud"]["sandbox"]>;
    let connectorId: string;
    let accounts: string[];

    beforeAll(async () => {
      ({
        server,
        sandbox,
        members: { admin },
      } = await startSandboxServer({ engine, members: ADMIN_AND_REQUESTER, scopes: ["Workloads-Prod"] }));
      const list = server.client(ConnectorService, admin);
      const aws = await waitFor(
        "the AWS connector",
        async () => {
          const found = (await list.listConnectors({})).items.find((c) => c.provider === CloudProvider.AWS);
          return found?.status === ConnectorStatus.CONNECTED ? found : undefined;
        },
        60_000,
      );
      connectorId = aws.entity?.id ?? "";
      const { roots } = await list.listHierarchy({ provider: CloudProvider.AWS });
      const ou = flatten(roots).find((n) => n.name === "Workloads-Prod");
      accounts = flatten(ou ? [ou] : [])
        .filter((n) => n.type === ScopeType.AWS_ACCOUNT)
        .map((n) => n.externalId);
      if (accounts.length < 2) throw new Error("the sandbox's Workloads-Prod has fewer than two accounts");
    }, 150_000);
    afterAll(async () => {
      await server?.stop();
    });

    const tryAs = async (principal: string, account: string) =>
      (await tryAction(sandbox, { provider: "aws", principal, account, action: ACTION, resource: "*" }))
        .status;

    /** The packed SCP Palisade attached to the account, as the sandbox's Organizations holds it. */
    async function deployedLength(account: string): Promise<number> {
      const [scp] = await scpsNamed(sandbox, `palisade-${account}-0`);
      if (!scp) throw new Error(`no packed SCP on ${account}`);
      const client = sandboxOrganizations(sandbox);
      try {
        const out = await client.send(new DescribePolicyCommand({ PolicyId: scp.id }));
        return out.Policy?.Content?.length ?? 0;
      } finally {
        client.destroy();
      }
    }

    /** Deploys the guardrail to one account and sets the connector's quota to leave room for ROOM waivers. */
    async function deployWithRoom(account: string, principals: string[]): Promise<string> {
      const { bundle } = await server.client(DeploymentManagerService, admin).createBundle({
        name: `Account Block Public Access ${account}`,
        policySlug: SLUG,
        scopes: [{ provider: CloudProvider.AWS, externalId: account, connectorId }],
        mode: DeploymentMode.PREVENT,
        isVisible: true,
        waiverSettings: { approvalMode: WaiverApprovalMode.AUTO },
      });
      const key = bundle?.key ?? "";
      const row = await waitForBundleStatus(
        server.palisade.database.db,
        bundle?.entity?.id ?? "",
        ["DEPLOYED", "FAILED"],
        60_000,
      );
      const why = await server.palisade.database.db
        .select({ message: deployments.errorMessage })
        .from(deployments)
        .where(eq(deployments.bundleId, row.id));
      expect(row.status, why.map((d) => d.message).join("; ")).toBe("DEPLOYED");
      const room = packedLength(account, principals.slice(0, ROOM)) - packedLength(account, []);
      const characters = (await deployedLength(account)) + room;
      const db = server.palisade.database.db;
      const [connector] = await db.select().from(connectors).where(eq(connectors.id, connectorId));
      await db
        .update(connectors)
        .set({ config: { ...(connector?.config as object), scpLimits: { characters, perTarget: 5 } } })
        .where(eq(connectors.id, connectorId));
      return key;
    }

    const storedFor = (key: string) =>
      server.palisade.database.db.select().from(waivers).where(eq(waivers.policyKey, key));

    it("acknowledges only the waivers of a burst that fit, and the cloud enforces every one of them", async () => {
      const account = accounts[0]!;
      const principals = PRINCIPALS.map((name) => `arn:aws:iam::${account}:${name}`);
      const key = await deployWithRoom(account, principals);
      const requesters = await Promise.all(
        principals.map(
          async (_, i) =>
            (await server.addMember({ role: "VISITOR", name: `Engineer ${i}` })).credentials as Credentials,
        ),
      );
      for (const principal of principals) expect(await tryAs(principal, account)).toBe(403);

      const outcomes = await Promise.allSettled(
        principals.map((principal, i) =>
          server.client(WaiverService, requesters[i]!).create({
            key,
            duration: HOUR_SECONDS,
            comment: "burst of waivers",
            target: { case: "principalArn", value: principal },
          }),
        ),
      );
      const accepted = principals.filter((_, i) => outcomes[i]!.status === "fulfilled");
      const refused = principals.filter((_, i) => outcomes[i]!.status === "rejected");
      expect(accepted.length).toBeGreaterThanOrEqual(1);
      expect(accepted.length).toBeLessThanOrEqual(ROOM);
      // The room was measured for the ROOM longest ARNs, so no more than ROOM of any of them fit.
      expect(refused.length).toBeGreaterThanOrEqual(principals.length - ROOM);
      for (const outcome of outcomes) {
        if (outcome.status === "fulfilled") continue;
        const error = await errorOf(Promise.reject(outcome.reason));
        expect(error.code).toBe(Code.FailedPrecondition);
        expect(error.findDetails(ErrorDetailSchema).map((d) => d.code)).toEqual([
          ProductErrorCode.POLICY_LIMIT_EXCEEDED,
        ]);
        expect(error.rawMessage).toContain(`has no room for another waiver on Account ${account}`);
        expect(error.rawMessage).toContain("Ask an administrator");
      }

      // Nothing is stored for a refused waiver; each stored one ends on the hour.
      const stored = await storedFor(key);
      expect(stored.map((w) => w.principalArn).sort()).toEqual([...accepted].sort());
      for (const waiver of stored) {
        expect(waiver.expiresAt?.getUTCMinutes()).toBe(0);
        expect(waiver.expiresAt?.getUTCSeconds()).toBe(0);
      }
      await waitFor(
        "every acknowledged waiver to be enforced",
        async () => {
          const { items } = await server.client(WaiverService, admin).list({ filter: { key } });
          return items.length === accepted.length && items.every((w) => w.status === WaiverStatus.ACTIVE)
            ? items
            : undefined;
        },
        60_000,
      );
      for (const principal of accepted) expect(await tryAs(principal, account)).toBe(200);
      for (const principal of refused) expect(await tryAs(principal, account)).toBe(403);
      const [row] = await server.palisade.database.db.select().from(bundles).where(eq(bundles.key, key));
      expect(row?.status).toBe("DEPLOYED");
    }, 180_000);

    it("refuses a requester more than half of a guardrail's waiver space, and leaves the rest to others", async () => {
      const account = accounts[1]!;
      const principals = PRINCIPALS.map((name) => `arn:aws:iam::${account}:${name}`);
      const key = await deployWithRoom(account, principals);
      const alice = (await server.addMember({ role: "VISITOR", name: "Alice Engineer" })).credentials;
      const bob = (await server.addMember({ role: "VISITOR", name: "Bob Engineer" })).credentials;
      const request = (as: Credentials, principal: string) =>
        server.client(WaiverService, as).create({
          key,
          duration: HOUR_SECONDS,
          comment: "share of the waiver space",
          target: { case: "principalArn", value: principal },
        });

      await request(alice, principals[0]!);
      const error = await errorOf(request(alice, principals[1]!));
      expect(error.findDetails(ErrorDetailSchema).map((d) => d.code)).toEqual([
        ProductErrorCode.WAIVER_LIMIT_EXCEEDED,
      ]);
      expect(error.rawMessage).toContain(
        "more than 50% of the room its service control policy has for waivers",
      );
      expect((await storedFor(key)).map((w) => w.principalArn)).toEqual([principals[0]]);

      // Another requester still finds room.
      await request(bob, principals[1]!);
      await waitFor(
        "both waivers to be enforced",
        async () => {
          const { items } = await server.client(WaiverService, admin).list({ filter: { key } });
          return items.length === 2 && items.every((w) => w.status === WaiverStatus.ACTIVE)
            ? items
            : undefined;
        },
        60_000,
      );
      expect(await tryAs(principals[0]!, account)).toBe(200);
      expect(await tryAs(principals[1]!, account)).toBe(200);
    }, 180_000);
  },
);

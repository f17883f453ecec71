import {
  DescribePolicyCommand,
  EnablePolicyTypeCommand,
  ListRootsCommand,
} from "@aws-sdk/client-organizations";
import { Code } from "@connectrpc/connect";
import { CloudProvider, ScopeType } from "@palisade/api/gen/palisade/common/v1/common_pb";
import {
  AwsPolicyType,
  ConnectorStatus,
  type HierarchyNode,
} from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import { ConnectorService } from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { DeploymentMode } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectors } from "../src/modules/connector/connector-schema";
import { errorOf } from "./support/call-error";
import { flatten, scpsNamed, waitForBundleStatus } from "./support/deployment-helpers";
import { waitFor } from "./support/poll";
import { sandboxOrganizations } from "./support/sandbox-aws-clients";
import { ADMIN_AND_REQUESTER, startSandboxServer } from "./support/sandbox-server";
import { engines } from "./support/test-database";
import type { Credentials, TestServer } from "./support/test-server";

const SLUG = "protect-s3-account-public-access-block";

// Quotas per type: https://docs.aws.amazon.com/organizations/latest/userguide/orgs_reference_limits.html
describe.each(engines)(
  "an AWS connector's policy types and the space used per target, with the sandbox cloud on %s",
  (engine) => {
    let server: TestServer;
    let admin: Credentials;
    let requester: Credentials;
    let sandbox: NonNullable<TestServer["palisade"]["cloud"]["sandbox"]>;
    let connectorId: string;
    let account: HierarchyNode;

    beforeAll(async () => {
      ({
        server,
        sandbox,
        members: { admin, requester },
      } = await startSandboxServer({ engine, members: ADMIN_AND_REQUESTER, scopes: ["Workloads-Prod"] }));
      const client = server.client(ConnectorService, admin);
      const aws = await waitFor(
        "the AWS connector",
        async () => {
          const found = (await client.listConnectors({})).items.find((c) => c.provider === CloudProvider.AWS);
          return found?.status === ConnectorStatus.CONNECTED ? found : undefined;
        },
        60_000,
      );
      connectorId = aws.entity?.id ?? "";
      const { roots } = await client.listHierarchy({ provider: CloudProvider.AWS });
      const ou = flatten(roots).find((n) => n.name === "Workloads-Prod");
      const first = flatten(ou ? [ou] : []).find((n) => n.type === ScopeType.AWS_ACCOUNT);
      if (!first) throw new Error("the sandbox's Workloads-Prod has no account");
      account = first;
    }, 150_000);
    afterAll(async () => {
      await server?.stop();
    });

    const organizations = () => sandboxOrganizations(sandbox);

    // Root.PolicyTypes: https://docs.aws.amazon.com/organizations/latest/APIReference/API_Root.html
    // EnablePolicyType: https://docs.aws.amazon.com/organizations/latest/APIReference/API_EnablePolicyType.html
    it("TestConnector reports which policy types the organisation enabled and how to enable a missing one, enabling none itself", async () => {
      const client = server.client(ConnectorService, admin);
      const org = organizations();
      try {
        const rootId = (await org.send(new ListRootsCommand({}))).Roots?.[0]?.Id ?? "";
        const typesOf = async () => {
          const tested = await client.testConnector({ target: { case: "id", value: connectorId } });
          // Without generated activity the organisation trail may not have delivered a file yet:
          // that check is another test's subject.
          const failed = tested.checks
            .filter((c) => !c.ok && !c.name.includes("organisation trail"))
            .map((c) => `${c.name}: ${c.message}`);
          expect(failed).toEqual([]);
          return new Map(tested.policyTypes.map((t) => [AwsPolicyType[t.type], t]));
        };
        const before = await typesOf();
        expect(before.get("SERVICE_CONTROL_POLICY")).toMatchObject({
          enabled: true,
          status: "ENABLED",
          needed: true,
          remedy: "",
        });
        const rcp = before.get("RESOURCE_CONTROL_POLICY");
        expect(rcp).toMatchObject({ enabled: false, status: "NOT_ENABLED" });
        expect(rcp?.remedy).toContain(
          `aws organizations enable-policy-type --root-id ${rootId} --policy-type RESOURCE_CONTROL_POLICY`,
        );
        // Testing never enables a type: the root still lists SCPs only.
        const listed = (await org.send(new ListRootsCommand({}))).Roots?.[0]?.PolicyTypes?.map((t) => t.Type);
        expect(listed).not.toContain("RESOURCE_CONTROL_POLICY");

        await org.send(
          new EnablePolicyTypeCommand({ RootId: rootId, PolicyType: "RESOURCE_CONTROL_POLICY" }),
        );
        const after = await typesOf();
        expect(after.get("RESOURCE_CONTROL_POLICY")).toMatchObject({
          enabled: true,
          status: "ENABLED",
          remedy: "",
        });
        expect(after.get("DECLARATIVE_POLICY_EC2")?.remedy).toContain("--policy-type DECLARATIVE_POLICY_EC2");
      } finally {
        org.destroy();
      }
    }, 60_000);

    async function packedLength(): Promise<number> {
      const [scp] = await scpsNamed(sandbox, `palisade-${account.externalId}-0`);
      if (!scp) throw new Error("no packed SCP on the account");
      const client = sandboxOrganizations(sandbox);
      try {
        return (
          (await client.send(new DescribePolicyCommand({ PolicyId: scp.id }))).Policy?.Content?.length ?? 0
        );
      } finally {
        client.destroy();
      }
    }

    it("lists each target Palisade deploys to by name, with policies and characters used per type against the connector's quotas", async () => {
      // A role without the connectors' read permission is refused, as for the connectors' other reads.
      const refused = await errorOf(
        server.client(ConnectorService, requester).getPolicySpace({ connectorId }),
      );
      expect(refused.code).toBe(Code.PermissionDenied);
      const client = server.client(ConnectorService, admin);
      expect((await client.getPolicySpace({ connectorId })).items).toEqual([]);

      const { bundle } = await server.client(DeploymentManagerService, admin).createBundle({
        name: "Account Block Public Access",
        policySlug: SLUG,
        scopes: [{ provider: CloudProvider.AWS, externalId: account.externalId, connectorId }],
        mode: DeploymentMode.PREVENT,
        isVisible: true,
      });
      await waitForBundleStatus(server.palisade.database.db, bundle?.entity?.id ?? "", ["DEPLOYED"], 60_000);

      const space = await client.getPolicySpace({ connectorId });
      expect(space.pagination?.totalItems).toBe(1);
      const [target] = space.items;
      expect(target).toMatchObject({
        targetId: account.externalId,
        targetName: account.name,
        targetType: ScopeType.AWS_ACCOUNT,
        error: "",
      });
      const scp = target?.types.find((t) => t.type === AwsPolicyType.SERVICE_CONTROL_POLICY);
      // FullAWSAccess and Palisade's one packed SCP; the nine slots beside FullAWSAccess hold 10,240
      // characters each
      // (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_reference_limits.html).
      expect(scp).toMatchObject({
        attached: 2,
        palisadePolicies: 1,
        maxPerTarget: 10,
        maxCharacters: 10_240,
        charactersAvailable: 9 * 10_240,
      });
      expect(scp?.charactersUsed).toBe(await packedLength());
      expect(target?.types.find((t) => t.type === AwsPolicyType.DECLARATIVE_POLICY_EC2)).toMatchObject({
        palisadePolicies: 0,
        maxPerTarget: 10,
        maxCharacters: 10_000,
      });

      // The quotas the connector states are what the space is measured against.
      const db = server.palisade.database.db;
      const [row] = await db.select().from(connectors).where(eq(connectors.id, connectorId));
      await db
        .update(connectors)
        .set({
          config: {
            ...(row?.config as object),
            policyLimits: { SERVICE_CONTROL_POLICY: { perTarget: 5, characters: 5_120 } },
          },
        })
        .where(eq(connectors.id, connectorId));
      const stated = (await client.getPolicySpace({ connectorId })).items[0]?.types.find(
        (t) => t.type === AwsPolicyType.SERVICE_CONTROL_POLICY,
      );
      expect(stated).toMatchObject({
        maxPerTarget: 5,
        maxCharacters: 5_120,
        charactersAvailable: 4 * 5_120,
      });

      // Paged: a page past the last has no targets but the same total.
      const past = await client.getPolicySpace({
        connectorId,
        pagination: { position: { case: "page", value: 2 } },
      });
      expect(past.items).toEqual([]);
      expect(past.pagination?.totalItems).toBe(1);
    }, 120_000);
  },
);

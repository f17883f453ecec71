import { EC2Client, RunInstancesCommand } from "@aws-sdk/client-ec2";
import {
  DescribeEffectivePolicyCommand,
  EnablePolicyTypeCommand,
  ListPoliciesCommand,
  ListRootsCommand,
  ListTagsForResourceCommand,
  ListTargetsForPolicyCommand,
} from "@aws-sdk/client-organizations";
import { CloudProvider, ScopeType } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { ConnectorStatus } from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import { ConnectorService } from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { DeploymentMode } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { PolicyService } from "@palisade/api/gen/palisade/policy/v1/policy_pb";
import { WaiverApprovalMode, WaiverStatus } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { WaiverService } from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { sandboxAccessKey } from "../../../packages/sandbox-cloud/test/aws-cli";
import { openDatabase } from "../src/db/database";
import { waivers } from "../src/modules/waiver/waiver-schema";
import { errorOf } from "./support/call-error";
import { expectDeployed, flatten } from "./support/deployment-helpers";
import { waitFor } from "./support/poll";
import { sandboxOrganizations } from "./support/sandbox-aws-clients";
import { createTestDatabase, engines } from "./support/test-database";
import { type Credentials, startTestServer, type TestServer } from "./support/test-server";

// A declarative policy for EC2 (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_declarative_syntax.html)
// deployed by Palisade on an OU of the sandbox organisation, seen through the official AWS SDK
// clients as an engineer and a cloud administrator would: EC2 refuses a launch without IMDSv2
// with the policy's exception_message, which carries the /req address; the waiver exempts the
// whole account (the policy is attached around it) until it expires, also across a restart.

const TYPE = "DECLARATIVE_POLICY_EC2";

function sandboxOf(server: TestServer) {
  const sandbox = server.palisade.cloud.sandbox;
  if (!sandbox) throw new Error("the sandbox cloud is not running");
  return sandbox;
}

function organizations(server: TestServer) {
  return sandboxOrganizations(sandboxOf(server));
}

/** An engineer's EC2 client in the account: alice's access key there. */
async function ec2As(server: TestServer, accountId: string): Promise<EC2Client> {
  const sandbox = sandboxOf(server);
  const key = await sandboxAccessKey(sandbox.url, accountId);
  return new EC2Client({
    endpoint: sandbox.aws.endpoint,
    region: "eu-west-1",
    credentials: { accessKeyId: key.accessKeyId, secretAccessKey: key.secretAccessKey },
    maxAttempts: 1,
  });
}

/** Launches an instance without stating IMDSv2: the refusal's message, or "launched". */
async function launchWithoutImdsV2(ec2: EC2Client): Promise<string> {
  try {
    await ec2.send(new RunInstancesCommand({ ImageId: "ami-0abcdef1234567890", MinCount: 1, MaxCount: 1 }));
    return "launched";
  } catch (error) {
    const e = error as { name?: string; message?: string };
    return `${e.name}: ${e.message}`;
  }
}

it.each(engines)(
  "a declarative IMDSv2 guardrail refuses with its /req address, and its waiver exempts the account until it expires, across a restart (%s)",
  async (engine) => {
    const database = await createTestDatabase(engine);
    const env = {
      DATA_DIR: database.dataDir,
      ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
      PALISADE_SANDBOX: "true",
      SANDBOX_ACTIVITY: "false",
    };
    let server = await startTestServer(engine, env);
    try {
      const admin: Credentials = (await server.addMember({ role: "ADMINISTRATOR" })).credentials;
      const requester: Credentials = (await server.addMember({ role: "VISITOR", name: "Alice Engineer" }))
        .credentials;
      const connectors = server.client(ConnectorService, admin);
      const connector = await waitFor(
        "the AWS connector to be connected",
        async () => (await connectors.listConnectors({})).items.find((c) => c.provider === CloudProvider.AWS),
        (c) => c?.status === ConnectorStatus.CONNECTED,
        60_000,
      );
      const nodes = flatten((await connectors.listHierarchy({ provider: CloudProvider.AWS })).roots);
      const ou = nodes.find((n) => n.name === "Workloads-Prod");
      const accounts = flatten(ou ? [ou] : []).filter((n) => n.type === ScopeType.AWS_ACCOUNT);
      const [account, sibling] = accounts;
      if (!ou || !account || !sibling)
        throw new Error("the sandbox hierarchy has no Workloads-Prod accounts");

      // Enabling the policy type is the organisation's decision
      // (https://docs.aws.amazon.com/organizations/latest/APIReference/API_EnablePolicyType.html).
      const org = organizations(server);
      const rootId = (await org.send(new ListRootsCommand({}))).Roots![0]!.Id!;
      await org.send(new EnablePolicyTypeCommand({ RootId: rootId, PolicyType: TYPE }));

      const ec2 = await ec2As(server, account.externalId);
      expect(await launchWithoutImdsV2(ec2)).toBe("launched");

      const { bundle } = await server.client(DeploymentManagerService, admin).createBundle({
        name: "IMDSv2 on production",
        policySlug: "ec2-imdsv2-required",
        scopes: [
          {
            provider: CloudProvider.AWS,
            externalId: ou.externalId,
            connectorId: connector?.entity?.id ?? "",
          },
        ],
        mode: DeploymentMode.PREVENT,
        isVisible: true,
        waiverSettings: { approvalMode: WaiverApprovalMode.AUTO },
      });
      const key = bundle?.key ?? "";
      await expectDeployed(server.palisade.database.db, bundle?.entity?.id ?? "");

      // In the organisation: one declarative policy named like Palisade's others, tagged, on the OU.
      const listed = (await org.send(new ListPoliciesCommand({ Filter: TYPE }))).Policies ?? [];
      const policy = listed.find((p) => p.Name === `palisade-${key}-ec2-imdsv2-required`);
      expect(policy).toBeDefined();
      const tags = (await org.send(new ListTagsForResourceCommand({ ResourceId: policy!.Id! }))).Tags ?? [];
      expect(tags).toContainEqual({ Key: "palisade:managed", Value: "true" });
      const targetsOf = async (client = org) =>
        ((await client.send(new ListTargetsForPolicyCommand({ PolicyId: policy!.Id! }))).Targets ?? [])
          .map((t) => t.TargetId)
          .sort();
      expect(await targetsOf()).toEqual([ou.externalId]);
      const effective = await org.send(
        new DescribeEffectivePolicyCommand({ PolicyType: TYPE, TargetId: account.externalId }),
      );
      expect(
        JSON.parse(effective.EffectivePolicy!.PolicyContent!).ec2_attributes.instance_metadata_defaults,
      ).toEqual({ http_tokens: "required", http_put_response_hop_limit: "2" });

      // EC2 refuses the launch with the policy's message: the key and the /req address.
      const refused = await launchWithoutImdsV2(ec2);
      expect(refused).toMatch(/^UnauthorizedOperation: /);
      expect(refused).toContain(`/req?k=${key}`);
      expect(refused).toContain(`policy key ${key}`);
      // Stating IMDSv2 launches.
      await ec2.send(
        new RunInstancesCommand({
          ImageId: "ami-0abcdef1234567890",
          MinCount: 1,
          MaxCount: 1,
          MetadataOptions: { HttpTokens: "required", HttpPutResponseHopLimit: 2 },
        }),
      );
      // /req resolves the pasted refusal to the guardrail.
      expect((await server.client(PolicyService).resolvePolicyKey({ text: refused })).key).toBe(key);

      // /req learns that a waiver exempts a whole account, and is offered accounts only.
      const policies = server.client(PolicyService);
      expect((await policies.getBundleByKey({ key })).waiverExemptsWholeAccount).toBe(true);
      const offered = (await policies.listWaiverScopes({ key })).scopes;
      expect(offered.map((s) => s.externalId)).toContain(account.externalId);
      expect(offered.every((s) => s.type === ScopeType.AWS_ACCOUNT)).toBe(true);
      // A waiver for every scope of the guardrail is refused: it names no account.
      const everywhere = await errorOf(
        server
          .client(WaiverService, requester)
          .create({ key, duration: 3_600n, comment: "everywhere please" }),
      );
      expect(everywhere.rawMessage).toContain("a waiver exempts one whole account");

      // The waiver exempts the whole account: the policy is attached around it.
      const { waiver } = await server.client(WaiverService, requester).create({
        key,
        duration: 3_600n,
        comment: "legacy agent needs IMDSv1 for one release",
        target: { case: "scopeExternalId", value: account.externalId },
      });
      const waiverId = waiver?.entity?.id ?? "";
      const reader = server.client(WaiverService, admin);
      await waitFor(
        "the waiver to be ACTIVE",
        async () => (await reader.list({ filter: { key } })).items[0]?.status,
        (status) => status === WaiverStatus.ACTIVE,
        60_000,
      );
      expect(await launchWithoutImdsV2(ec2)).toBe("launched");
      const targets = await targetsOf();
      expect(targets).not.toContain(account.externalId);
      expect(targets).not.toContain(ou.externalId);
      expect(targets).toContain(sibling.externalId);
      expect(await launchWithoutImdsV2(await ec2As(server, sibling.externalId))).toMatch(
        /^UnauthorizedOperation: /,
      );

      // The waiver falls due while Palisade is down: at the next start the expiry sweep ends it
      // and the sync puts the account back under the policy.
      await server.stop();
      const offline = await openDatabase({ databaseUrl: database.databaseUrl, dataDir: database.dataDir });
      await offline.db
        .update(waivers)
        .set({ expiresAt: new Date(Date.now() - 60_000) })
        .where(eq(waivers.id, waiverId));
      await offline.close();
      server = await startTestServer(engine, env);
      const after = server.client(WaiverService, admin);
      await waitFor(
        "the waiver to be EXPIRED",
        async () => (await after.list({ filter: { key } })).items[0]?.status,
        (status) => status === WaiverStatus.EXPIRED,
        60_000,
      );
      const again = await ec2As(server, account.externalId);
      const last = await waitFor(
        "the launch to be denied again",
        () => launchWithoutImdsV2(again),
        (outcome) => outcome !== "launched",
        60_000,
      );
      expect(last).toContain(`/req?k=${key}`);
      // The sandbox listens on a new port after the restart.
      expect(await targetsOf(organizations(server))).toEqual([ou.externalId]);
    } finally {
      await server.stop();
      await database.drop();
    }
  },
  300_000,
);

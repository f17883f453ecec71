import { Code, ConnectError } from "@connectrpc/connect";
import { CloudProvider, ScopeType } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { ConnectorStatus } from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import { ConnectorService } from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { DeploymentMode } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { WaiverApprovalMode, WaiverStatus } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { WaiverService } from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waivers } from "../src/modules/waiver/waiver-schema";
import { expectDeployed, flatten } from "./support/deployment-helpers";
import { waitFor } from "./support/poll";
import { startSandboxServer } from "./support/sandbox-server";
import { cloudEvaluationEngines } from "./support/test-database";
import type { Credentials, TestServer } from "./support/test-server";

// For a role session, aws:PrincipalArn is the role's ARN, not the session's
// (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-keys.html#condition-keys-principalarn).
describe.each(cloudEvaluationEngines)("AWS principals and scopes, with the sandbox cloud on %s", (engine) => {
  let server: TestServer;
  let admin: Credentials;
  let requester: Credentials;

  beforeAll(async () => {
    ({
      server,
      members: { admin, requester },
    } = await startSandboxServer({
      engine,
      members: { admin: "ADMINISTRATOR", requester: { role: "VISITOR", name: "Alice Engineer" } },
      scopes: false,
    }));
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
  });

  async function tryAs(principal: string, account: string): Promise<number> {
    const response = await fetch(`${server.palisade.cloud.sandbox?.url}/sandbox/try`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        provider: "aws",
        principal,
        account,
        action: "s3:PutAccountPublicAccessBlock",
        resource: "*",
      }),
    });
    await response.body?.cancel();
    return response.status;
  }

  it("stores and enforces a waiver requested for a role session as the role, for that role's sessions only", async () => {
    const connectors = server.client(ConnectorService, admin);
    const aws = await waitFor(
      "the AWS connector to be connected",
      async () => (await connectors.listConnectors({})).items.find((c) => c.provider === CloudProvider.AWS),
      (c) => c?.status === ConnectorStatus.CONNECTED,
      60_000,
    );
    const { roots } = await connectors.listHierarchy({ provider: CloudProvider.AWS });
    const ou = flatten(roots).find((n) => n.name === "Workloads-Prod");
    const [account, sibling] = flatten(ou ? [ou] : []).filter((n) => n.type === ScopeType.AWS_ACCOUNT);
    if (!ou || !account || !sibling || !aws)
      throw new Error("the sandbox hierarchy has no Workloads-Prod accounts");
    const acct = account.externalId;

    const { bundle } = await server.client(DeploymentManagerService, admin).createBundle({
      name: "Account Block Public Access",
      policySlug: "protect-s3-account-public-access-block",
      scopes: [{ provider: CloudProvider.AWS, externalId: ou.externalId, connectorId: aws.entity?.id ?? "" }],
      mode: DeploymentMode.PREVENT,
      isVisible: true,
      waiverSettings: { approvalMode: WaiverApprovalMode.AUTO },
    });
    const key = bundle?.key ?? "";
    await expectDeployed(server.palisade.database.db, bundle?.entity?.id ?? "");
    const alice = `arn:aws:sts::${acct}:assumed-role/Developer/alice`;
    expect(await tryAs(alice, acct)).toBe(403);

    const { waiver } = await server.client(WaiverService, requester).create({
      key,
      duration: 3_600n,
      comment: "rotating the account baseline",
      target: { case: "principalArn", value: alice },
    });
    // The requester is told what the waiver covers: the role, every session of it.
    expect(waiver?.target).toEqual({ case: "principalArn", value: `arn:aws:iam::${acct}:role/Developer` });
    expect(waiver?.scope).toContain(`every session of the IAM role Developer in account ${acct}`);
    const stored = await server.palisade.database.db
      .select({ principalArn: waivers.principalArn })
      .from(waivers)
      .where(eq(waivers.id, waiver?.entity?.id ?? ""));
    expect(stored).toEqual([{ principalArn: `arn:aws:iam::${acct}:role/Developer` }]);

    await waitFor(
      "the waiver to be ACTIVE",
      async () => (await server.client(WaiverService, admin).list({ filter: { key } })).items[0],
      (w) => w?.status === WaiverStatus.ACTIVE,
      30_000,
    );
    expect(await tryAs(alice, acct)).toBe(200);
    expect(await tryAs(`arn:aws:sts::${acct}:assumed-role/Developer/bob`, acct)).toBe(200);
    expect(await tryAs("role/Developer", acct)).toBe(200);
    expect(await tryAs(`arn:aws:sts::${acct}:assumed-role/Admin/alice`, acct)).toBe(403);
    expect(await tryAs("user/alice", acct)).toBe(403);
    // The same role name in another account is another role.
    expect(
      await tryAs(`arn:aws:sts::${sibling.externalId}:assumed-role/Developer/alice`, sibling.externalId),
    ).toBe(403);
  }, 120_000);
  // SCPs never restrict the management account
  // (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_scps.html).
  it("refuses a guardrail on the management account at create and update, with the reason", async () => {
    const connectors = server.client(ConnectorService, admin);
    const aws = await waitFor(
      "the AWS connector to be connected",
      async () => (await connectors.listConnectors({})).items.find((c) => c.provider === CloudProvider.AWS),
      (c) => c?.status === ConnectorStatus.CONNECTED,
      60_000,
    );
    const management = server.palisade.cloud.sandbox?.aws.managementAccountId ?? "";
    const { roots } = await connectors.listHierarchy({ provider: CloudProvider.AWS });
    const nodes = flatten(roots);
    expect(nodes.map((n) => n.externalId)).toContain(management);
    const member = nodes.find((n) => n.type === ScopeType.AWS_ACCOUNT && n.externalId !== management)!;
    const scope = (externalId: string) => ({
      provider: CloudProvider.AWS,
      externalId,
      connectorId: aws?.entity?.id ?? "",
    });
    const deployments = server.client(DeploymentManagerService, admin);
    const refused = await deployments
      .createBundle({
        name: "Leave protection",
        policySlug: "deny-leave-organization",
        scopes: [scope(management)],
        mode: DeploymentMode.PREVENT,
        isVisible: true,
      })
      .then(
        () => undefined,
        (error) => ConnectError.from(error),
      );
    expect(refused?.code).toBe(Code.InvalidArgument);
    expect(refused?.rawMessage).toContain(`${management} is the organisation's management account`);

    const { bundle } = await deployments.createBundle({
      name: "Leave protection",
      policySlug: "deny-leave-organization",
      scopes: [scope(member.externalId)],
      mode: DeploymentMode.PREVENT,
      isVisible: true,
    });
    const update = await deployments
      .updateBundle({ id: bundle?.entity?.id ?? "", scopes: [scope(member.externalId), scope(management)] })
      .then(
        () => undefined,
        (error) => ConnectError.from(error),
      );
    expect(update?.code).toBe(Code.InvalidArgument);
    expect(update?.rawMessage).toContain("service control policies never restrict");
  }, 120_000);
});

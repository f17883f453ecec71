import { Code } from "@connectrpc/connect";
import { CloudProvider, ScopeType } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { ConnectorStatus, type HierarchyNode } from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import { ConnectorService } from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { DeploymentMode } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { PolicyService } from "@palisade/api/gen/palisade/policy/v1/policy_pb";
import { WaiverApprovalMode } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { WaiverService } from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorOf } from "./support/call-error";
import { flatten } from "./support/deployment-helpers";
import { waitFor } from "./support/poll";
import { engines } from "./support/test-database";
import { type Credentials, startTestServer, type TestServer } from "./support/test-server";

describe.each(engines)("where a waiver may apply, on %s", (engine) => {
  let server: TestServer;
  let admin: Credentials;
  let requester: Credentials;
  let awsNodes: HierarchyNode[];
  let azureNodes: HierarchyNode[];
  let awsKey: string;
  let azureKey: string;

  beforeAll(async () => {
    server = await startTestServer(engine, { PALISADE_SANDBOX: "true", SANDBOX_ACTIVITY: "false" });
    admin = (await server.addMember({ role: "ADMINISTRATOR" })).credentials;
    requester = (await server.addMember({ role: "VISITOR", name: "Alice Engineer" })).credentials;
    const connectors = server.client(ConnectorService, admin);
    const connected = await waitFor(
      "both sandbox connectors",
      async () => {
        const { items } = await connectors.listConnectors({});
        const aws = items.find((c) => c.provider === CloudProvider.AWS);
        const azure = items.find((c) => c.provider === CloudProvider.AZURE);
        return aws?.status === ConnectorStatus.CONNECTED && azure?.status === ConnectorStatus.CONNECTED
          ? { aws, azure }
          : undefined;
      },
      60_000,
    );
    awsNodes = flatten((await connectors.listHierarchy({ provider: CloudProvider.AWS })).roots);
    azureNodes = flatten((await connectors.listHierarchy({ provider: CloudProvider.AZURE })).roots);
    const ou = awsNodes.find((n) => n.name === "Workloads-Prod");
    const group = azureNodes.find((n) => n.name === "Corp");
    if (!ou || !group) throw new Error("the sandbox hierarchy lacks Workloads-Prod or Corp");

    const deploy = server.client(DeploymentManagerService, admin);
    const aws = await deploy.createBundle({
      name: "Account public access block",
      policySlug: "protect-s3-account-public-access-block",
      scopes: [
        {
          provider: CloudProvider.AWS,
          externalId: ou.externalId,
          connectorId: connected.aws.entity?.id ?? "",
        },
      ],
      mode: DeploymentMode.ALERT,
      parameters: { exempt_principal_arns: ["arn:aws:iam::*:role/Platform"] },
      isVisible: true,
      waiverSettings: { approvalMode: WaiverApprovalMode.MANUAL },
    });
    awsKey = aws.bundle?.key ?? "";
    const azure = await deploy.createBundle({
      name: "Corp guardrail",
      policySlug: "vm-require-encryption-at-host",
      scopes: [
        {
          provider: CloudProvider.AZURE,
          externalId: group.externalId,
          connectorId: connected.azure.entity?.id ?? "",
        },
      ],
      mode: DeploymentMode.ALERT,
      isVisible: true,
      waiverSettings: { approvalMode: WaiverApprovalMode.MANUAL },
    });
    azureKey = azure.bundle?.key ?? "";
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("lists the accounts under an OU bundle by name, without sign-in, and nothing outside it", async () => {
    const ou = awsNodes.find((n) => n.name === "Workloads-Prod");
    const inside = flatten(ou ? [ou] : []).filter((n) => n.type === ScopeType.AWS_ACCOUNT);
    const { scopes, total } = await server
      .client(PolicyService)
      .listWaiverScopes({ key: awsKey.toLowerCase() });
    expect(scopes.map((s) => s.name)).toEqual(inside.map((n) => n.name).sort());
    expect(total).toBe(inside.length);
    for (const scope of scopes) {
      expect(scope.type).toBe(ScopeType.AWS_ACCOUNT);
      expect(scope.parentName).toBe("Workloads-Prod");
      expect(inside.map((n) => n.externalId)).toContain(scope.externalId);
    }
  });

  it("finds a scope by part of its name or its id", async () => {
    const lookup = server.client(PolicyService);
    const byName = await lookup.listWaiverScopes({ key: awsKey, search: "PAYMENTS" });
    expect(byName.scopes.map((s) => s.name)).toEqual(["payments-prod"]);
    const id = byName.scopes[0]?.externalId ?? "";
    const byId = await lookup.listWaiverScopes({ key: awsKey, search: id });
    expect(byId.scopes.map((s) => s.externalId)).toEqual([id]);
    // One character is no search: every scope comes back.
    expect((await lookup.listWaiverScopes({ key: awsKey, search: "p" })).total).toBe(
      (await lookup.listWaiverScopes({ key: awsKey })).total,
    );
    expect((await lookup.listWaiverScopes({ key: awsKey, search: "no-such-account" })).total).toBe(0);
  });

  it("lists subscriptions and resource groups under a management group, a page at a time", async () => {
    const lookup = server.client(PolicyService);
    const first = await lookup.listWaiverScopes({ key: azureKey });
    const types = new Set(first.scopes.map((s) => s.type));
    expect(types).toEqual(new Set([ScopeType.AZURE_SUBSCRIPTION, ScopeType.AZURE_RESOURCE_GROUP]));
    expect(first.scopes.map((s) => s.name)).toContain("corp-prod");
    expect(first.scopes.map((s) => s.name)).not.toContain("online-prod");
    const group = first.scopes.find((s) => s.type === ScopeType.AZURE_RESOURCE_GROUP);
    expect(["corp-prod", "corp-dev"]).toContain(group?.parentName);
    expect(first.scopes.length).toBeLessThanOrEqual(50);
    if (first.total > 50) {
      const second = await lookup.listWaiverScopes({ key: azureKey, page: 2 });
      expect(second.scopes.length).toBe(Math.min(50, first.total - 50));
    }
  });

  it("answers not_found for a key no bundle holds and invalid_argument for a malformed one", async () => {
    const lookup = server.client(PolicyService);
    expect((await errorOf(lookup.listWaiverScopes({ key: "ZZZZZZZ" }))).code).toBe(Code.NotFound);
    expect((await errorOf(lookup.listWaiverScopes({ key: "abc" }))).code).toBe(Code.InvalidArgument);
  });

  it("shows the bundle's parameters labelled as the definition names them", async () => {
    const card = await server.client(PolicyService).getBundleByKey({ key: awsKey });
    expect(card.parameters.map((p) => p.displayName)).toEqual(["Exempt principals"]);
    expect(card.parameters[0]?.name).toBe("exempt_principal_arns");
    expect(card.parameters[0]?.description).toMatch(/IAM role ARN patterns/);
    const response = await fetch(`${server.url}/palisade.policy.v1.PolicyService/GetBundleByKey`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key: awsKey }),
    });
    const body = (await response.json()) as { parameters: { value: unknown }[] };
    expect(body.parameters[0]?.value).toEqual(["arn:aws:iam::*:role/Platform"]);
  });

  it("creates a waiver for a listed account and refuses one outside the bundle's scopes, saying why", async () => {
    const waivers = server.client(WaiverService, requester);
    const { scopes } = await server.client(PolicyService).listWaiverScopes({ key: awsKey });
    const listed = scopes[0];
    const { waiver } = await waivers.create({
      key: awsKey,
      duration: 3_600n,
      comment: "rotating keys",
      target: { case: "scopeExternalId", value: listed?.externalId ?? "" },
    });
    expect(waiver?.scope).toBe(`Account ${listed?.externalId}`);

    const outside = awsNodes.find((n) => n.name === "sandbox-alice");
    const error = await errorOf(
      waivers.create({
        key: awsKey,
        duration: 3_600n,
        comment: "rotating keys",
        target: { case: "scopeExternalId", value: outside?.externalId ?? "" },
      }),
    );
    expect(error.code).toBe(Code.InvalidArgument);
    expect(error.rawMessage).toBe(
      `Account ${outside?.externalId} is not within any scope policy ${awsKey} is deployed to.`,
    );
  });
});

import { toJsonString } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import { CloudProvider, ScopeType } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { AzureCredentialType, ConnectorStatus } from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import {
  ConnectorService,
  GetConnectorResponseSchema,
} from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog } from "../src/modules/audit/audit-schema";
import { policyQuotasFor } from "../src/modules/connector/connector-api";
import { connectors, hierarchyNodes } from "../src/modules/connector/connector-schema";
import { errorOf } from "./support/call-error";
import { flatten } from "./support/deployment-helpers";
import { finishedJob } from "./support/job-wait";
import { startSandboxServer } from "./support/sandbox-server";
import { engines } from "./support/test-database";
import { type Credentials, startTestServer, type TestServer } from "./support/test-server";

const AZURE_TENANT = "6f0a8a3c-2b1e-4c43-9d4b-2a7d1c9e5b11";
const AZURE_CLIENT = "0c3f7b9a-1d2e-4f5a-8b6c-7d8e9f0a1b2c";

describe.each(engines)("connectors on %s", (engine) => {
  let server: TestServer;
  let admin: Credentials;
  let viewer: Credentials;

  beforeAll(async () => {
    ({
      server,
      members: { admin, viewer },
    } = await startSandboxServer({
      engine,
      members: { admin: { role: "ADMINISTRATOR", name: "Ada Admin" }, viewer: "VIEWER" },
      scopes: false,
    }));
  });
  afterAll(async () => {
    await server?.stop();
  });

  async function waitForSync(id: string) {
    const client = server.client(ConnectorService, admin);
    for (let i = 0; i < 200; i += 1) {
      const { connector } = await client.getConnector({ id });
      if (connector?.status !== ConnectorStatus.SYNCING) return connector;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error("sync did not finish");
  }

  it("gives the default tenant a synced sandbox connector per provider on first start", async () => {
    const client = server.client(ConnectorService, viewer);
    const { items } = await client.listConnectors({});
    expect(items.map((c) => c.name).sort()).toEqual(["Sandbox AWS organisation", "Sandbox Azure tenant"]);
    for (const item of items) {
      const connector = await waitForSync(item.entity?.id ?? "");
      expect(connector?.status).toBe(ConnectorStatus.CONNECTED);
      expect(connector?.lastSyncAt).toBeDefined();
    }
    const { roots } = await client.listHierarchy({ provider: CloudProvider.AWS });
    expect(roots).toHaveLength(1);
    expect(roots[0]?.type).toBe(ScopeType.AWS_ORGANIZATION_ROOT);
    const names = flatten(roots).map((n) => n.name);
    expect(names).toEqual(
      expect.arrayContaining(["Workloads", "Workloads-Prod", "payments-prod", "sandbox-bob"]),
    );
  });

  it("adds a sandbox connector, tests it, syncs it and shows the tree", async () => {
    const client = server.client(ConnectorService, admin);
    const { connector } = await client.createConnector({
      name: "  Demo Azure  ",
      config: { kind: { case: "sandbox", value: { provider: CloudProvider.AZURE } } },
    });
    const id = connector?.entity?.id ?? "";
    expect(connector?.name).toBe("Demo Azure");
    expect(connector?.status).toBe(ConnectorStatus.NEVER_SYNCED);
    expect(connector?.provider).toBe(CloudProvider.AZURE);

    const tested = await client.testConnector({ target: { case: "id", value: id } });
    expect(tested.ok).toBe(true);
    expect(tested.checks.map((c) => c.name)).toContain("Read management groups");

    const { jobId } = await client.syncHierarchy({ id });
    expect(jobId).not.toBe("");
    const synced = await waitForSync(id);
    expect(synced?.status).toBe(ConnectorStatus.CONNECTED);
    const job = await finishedJob(server.palisade.database.db, jobId);
    expect(job?.status).toBe("SUCCEEDED");
    // Nine management groups (the tenant root group included), seven subscriptions, two resource groups each.
    expect(job?.result).toMatchObject({ nodes: 9 + 7 + 14 });

    const { roots } = await client.listHierarchy({ connectorId: id });
    expect(roots).toHaveLength(1);
    const root = roots[0]!;
    expect(root.type).toBe(ScopeType.AZURE_MANAGEMENT_GROUP);
    expect(root.connectorId).toBe(id);
    const all = flatten(roots);
    const corpProd = all.find((n) => n.name === "corp-prod");
    expect(corpProd?.type).toBe(ScopeType.AZURE_SUBSCRIPTION);
    expect(corpProd?.children.map((c) => c.name).sort()).toEqual(["rg-corp-prod-app", "rg-corp-prod-data"]);

    // A second sync keeps the nodes' ids.
    const before = new Map(all.map((n) => [n.externalId, n.entity?.id]));
    await client.syncHierarchy({ id });
    await waitForSync(id);
    const again = flatten((await client.listHierarchy({ connectorId: id })).roots);
    expect(again.map((n) => before.get(n.externalId))).toEqual(again.map((n) => n.entity?.id));

    const entries = await server.palisade.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, id), eq(auditLog.targetType, "connector")));
    expect(entries.map((e) => e.action)).toEqual(
      expect.arrayContaining([
        "ConnectorService.CreateConnector",
        "ConnectorService.TestConnector",
        "ConnectorService.SyncHierarchy",
      ]),
    );
  });

  it("creates an AWS connector with a generated external id and shows the trust policy that requires it", async () => {
    const client = server.client(ConnectorService, admin);
    const { connector } = await client.createConnector({
      name: "Production org",
      config: {
        kind: {
          case: "aws",
          value: {
            managementAccountId: "111122223333",
            roleArn: "arn:aws:iam::111122223333:role/PalisadeConnector",
            externalId: "chosen-by-the-caller",
          },
        },
      },
    });
    const aws = connector?.config?.kind.case === "aws" ? connector.config.kind.value : undefined;
    expect(aws?.externalId).toMatch(/^palisade-[0-9a-f]{32}$/);
    expect(aws?.region).toBe("us-east-1");
    const setup = await client.getSetupInstructions({
      target: { case: "connectorId", value: connector?.entity?.id ?? "" },
    });
    expect(setup.instructions.case).toBe("aws");
    const instructions = setup.instructions.case === "aws" ? setup.instructions.value : undefined;
    expect(instructions?.externalId).toBe(aws?.externalId);
    const trust = JSON.parse(instructions?.trustPolicyJson ?? "{}");
    expect(trust.Statement[0].Condition.StringEquals["sts:ExternalId"]).toBe(aws?.externalId);
    expect(instructions?.iamPermissions).toContain("organizations:CreatePolicy");
    expect(setup.markdown).toContain(aws?.externalId);
  });

  // Quotas: https://docs.aws.amazon.com/organizations/latest/userguide/orgs_reference_limits.html
  it("keeps the SCP quotas an AWS connector states, which the compiler and packer then use", async () => {
    const client = server.client(ConnectorService, admin);
    const config = (scpMaxCharacters: number, scpMaxPerTarget: number) => ({
      kind: {
        case: "aws" as const,
        value: {
          managementAccountId: "111122223333",
          roleArn: "arn:aws:iam::111122223333:role/PalisadeConnector",
          scpMaxCharacters,
          scpMaxPerTarget,
        },
      },
    });
    const { connector } = await client.createConnector({ name: "Stated quotas", config: config(5_120, 5) });
    const aws = connector?.config?.kind.case === "aws" ? connector.config.kind.value : undefined;
    expect([aws?.scpMaxCharacters, aws?.scpMaxPerTarget]).toEqual([5_120, 5]);
    const db = server.palisade.database.db;
    const id = connector?.entity?.id ?? "";
    expect(await policyQuotasFor(db, server.defaultTenantId, id, "SERVICE_CONTROL_POLICY")).toEqual({
      characters: 5_120,
      perTarget: 5,
    });

    await client.updateConnector({ id, config: config(0, 0) });
    expect(await policyQuotasFor(db, server.defaultTenantId, id, "SERVICE_CONTROL_POLICY")).toEqual({
      characters: 10_240,
      perTarget: 10,
    });
    const error = await errorOf(client.updateConnector({ id, config: config(2_000_000, 5) }));
    expect(error.code).toBe(Code.InvalidArgument);
  });

  it("keeps an AWS connector's external id when its role changes, and its kind", async () => {
    const client = server.client(ConnectorService, admin);
    const aws = (roleArn: string) => ({
      kind: { case: "aws" as const, value: { managementAccountId: "111122223333", roleArn } },
    });
    const { connector } = await client.createConnector({
      name: "Org",
      config: aws("arn:aws:iam::111122223333:role/First"),
    });
    const id = connector?.entity?.id ?? "";
    const externalId = connector?.config?.kind.case === "aws" ? connector.config.kind.value.externalId : "";
    const { connector: updated } = await client.updateConnector({
      id,
      config: aws("arn:aws:iam::111122223333:role/Second"),
    });
    const after = updated?.config?.kind.case === "aws" ? updated.config.kind.value : undefined;
    expect(after?.roleArn).toBe("arn:aws:iam::111122223333:role/Second");
    expect(after?.externalId).toBe(externalId);
    const error = await errorOf(
      client.updateConnector({
        id,
        config: { kind: { case: "sandbox", value: { provider: CloudProvider.AWS } } },
      }),
    );
    expect(error.code).toBe(Code.InvalidArgument);
    expect(error.rawMessage).toMatch(/stays one/);
  });

  it("names an AWS connector's organisation trail, returns it, and falls back to LookupEvents without it", async () => {
    const client = server.client(ConnectorService, admin);
    const trail = {
      bucket: "org-cloudtrail-logs",
      keyPrefix: "audit",
      bucketRegion: "eu-west-1",
      readerRoleArn: "arn:aws:iam::444455556666:role/PalisadeTrailReader",
      readerExternalId: "log-archive-42",
      backfillDays: 30,
    };
    const aws = (withTrail: boolean) => ({
      kind: {
        case: "aws" as const,
        value: {
          managementAccountId: "111122223333",
          roleArn: "arn:aws:iam::111122223333:role/PalisadeConnector",
          ...(withTrail ? { trail } : {}),
        },
      },
    });
    const { connector } = await client.createConnector({ name: "Org with trail", config: aws(true) });
    const id = connector?.entity?.id ?? "";
    const { connector: read } = await server.client(ConnectorService, viewer).getConnector({ id });
    expect(read?.config?.kind.case === "aws" ? read.config.kind.value.trail : undefined).toMatchObject(trail);
    const tooLong = await errorOf(
      client.updateConnector({
        id,
        config: {
          kind: {
            ...aws(true).kind,
            value: { ...aws(true).kind.value, trail: { ...trail, backfillDays: 91 } },
          },
        },
      }),
    );
    expect(tooLong.code).toBe(Code.InvalidArgument);
    const { connector: without } = await client.updateConnector({ id, config: aws(false) });
    expect(without?.config?.kind.case === "aws" ? without.config.kind.value.trail : "none").toBeUndefined();
  });

  it("stores an Azure client secret encrypted and never returns it", async () => {
    const client = server.client(ConnectorService, admin);
    const secret = "a-very-secret-client-secret-value";
    const { connector } = await client.createConnector({
      name: "Contoso",
      config: {
        kind: {
          case: "azure",
          value: {
            tenantId: AZURE_TENANT,
            clientId: AZURE_CLIENT,
            credentialType: AzureCredentialType.CLIENT_SECRET,
            clientSecret: secret,
          },
        },
      },
    });
    const id = connector?.entity?.id ?? "";
    const [row] = await server.palisade.database.db.select().from(connectors).where(eq(connectors.id, id));
    expect(row?.secretCiphertext).toBeTruthy();
    expect(JSON.stringify(row)).not.toContain(secret);
    const read = await client.getConnector({ id });
    expect(toJsonString(GetConnectorResponseSchema, read)).not.toContain(secret);
    const azure =
      read.connector?.config?.kind.case === "azure" ? read.connector.config.kind.value : undefined;
    expect(azure?.clientSecret).toBeUndefined();
    expect(azure?.tenantId).toBe(AZURE_TENANT);

    // Renaming leaves the stored secret alone.
    await client.updateConnector({ id, name: "Contoso tenant" });
    const [after] = await server.palisade.database.db.select().from(connectors).where(eq(connectors.id, id));
    expect(after?.secretCiphertext).toBe(row?.secretCiphertext);
    const entries = await server.palisade.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetId, id));
    expect(JSON.stringify(entries)).not.toContain(secret);
  });

  it.each([
    [
      "an empty name",
      { name: " ", config: { kind: { case: "sandbox", value: { provider: CloudProvider.AWS } } } },
      /name must not be empty/,
    ],
    ["no configuration", { name: "x" }, /config must be one of/],
    [
      "a short account id",
      { name: "x", config: { kind: { case: "aws", value: { managementAccountId: "123", roleArn: "" } } } },
      /management_account_id/,
    ],
    [
      "an Azure secret connector without a secret",
      {
        name: "x",
        config: {
          kind: {
            case: "azure",
            value: {
              tenantId: AZURE_TENANT,
              clientId: AZURE_CLIENT,
              credentialType: AzureCredentialType.CLIENT_SECRET,
            },
          },
        },
      },
      /client_secret is required/,
    ],
  ] as const)("refuses %s with invalid_argument naming the field", async (_name, request, message) => {
    const error = await errorOf(
      server
        .client(ConnectorService, admin)
        .createConnector(
          request as Parameters<
            ReturnType<typeof server.client<typeof ConnectorService>>["createConnector"]
          >[0],
        ),
    );
    expect(error.code).toBe(Code.InvalidArgument);
    expect(error.rawMessage).toMatch(message);
  });

  it("reports a failing connection with an actionable message and marks the connector", async () => {
    const client = server.client(ConnectorService, admin);
    const { connector } = await client.createConnector({
      name: "Wrong secret",
      config: {
        kind: {
          case: "azure",
          value: {
            tenantId: AZURE_TENANT,
            clientId: AZURE_CLIENT,
            credentialType: AzureCredentialType.CLIENT_SECRET,
            clientSecret: "wrong",
          },
        },
      },
    });
    const id = connector?.entity?.id ?? "";
    // A real tenant's sign-in endpoint is not reachable from here; the check says so.
    const tested = await client.testConnector({ target: { case: "id", value: id } });
    expect(tested.ok).toBe(false);
    expect(tested.checks[0]?.name).toBe("Sign in to Entra ID");
    // Offline the sign-in endpoint is unreachable; online, Entra ID refuses the made-up tenant.
    expect(tested.checks[0]?.message).toMatch(
      /Cannot reach the sign-in endpoint|was not found|No application|refused/,
    );
    const read = await client.getConnector({ id });
    expect(read.connector?.status).toBe(ConnectorStatus.ERROR);
    expect(read.connector?.lastError).toContain("Sign in to Entra ID");
  }, 60_000);

  it("answers not_found for another tenant's connector and keeps tenants apart", async () => {
    const other = await server.createTenant("Elsewhere");
    const stranger = (await server.addMember({ role: "ADMINISTRATOR", tenantId: other })).credentials;
    const mine = (await server.client(ConnectorService, admin).listConnectors({})).items[0];
    const theirs = server.client(ConnectorService, stranger);
    const id = mine?.entity?.id ?? "";
    // Each call starts only when awaited, so no refusal goes unobserved.
    for (const call of [
      () => theirs.getConnector({ id }),
      () => theirs.syncHierarchy({ id }),
      () => theirs.deleteConnector({ id }),
      () => theirs.listHierarchy({ connectorId: id }),
      () => theirs.testConnector({ target: { case: "id", value: id } }),
      () => theirs.getPolicySpace({ connectorId: id }),
    ]) {
      expect((await errorOf(call())).code).toBe(Code.NotFound);
    }
    expect((await theirs.listConnectors({})).items).toEqual([]);
    expect((await theirs.listHierarchy({})).roots).toEqual([]);
  });

  it("removes a connector and its hierarchy", async () => {
    const client = server.client(ConnectorService, admin);
    const { connector } = await client.createConnector({
      name: "Short-lived",
      config: { kind: { case: "sandbox", value: { provider: CloudProvider.AWS } } },
    });
    const id = connector?.entity?.id ?? "";
    await client.syncHierarchy({ id });
    await waitForSync(id);
    await client.deleteConnector({ id });
    expect((await errorOf(client.getConnector({ id }))).code).toBe(Code.NotFound);
    const nodes = await server.palisade.database.db
      .select()
      .from(hierarchyNodes)
      .where(eq(hierarchyNodes.connectorId, id));
    expect(nodes).toEqual([]);
  });

  it("lets a viewer read connectors but not change them", async () => {
    const client = server.client(ConnectorService, viewer);
    expect((await client.listConnectors({})).items.length).toBeGreaterThan(0);
    const error = await errorOf(
      client.createConnector({
        name: "x",
        config: { kind: { case: "sandbox", value: { provider: CloudProvider.AWS } } },
      }),
    );
    expect(error.code).toBe(Code.PermissionDenied);
  });
});

describe("connectors without the sandbox", () => {
  let server: TestServer;
  let admin: Credentials;
  beforeAll(async () => {
    server = await startTestServer("pglite");
    admin = (await server.addMember({ role: "ADMINISTRATOR" })).credentials;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("creates no sandbox connector and refuses one with a reason", async () => {
    const client = server.client(ConnectorService, admin);
    expect((await client.listConnectors({})).items).toEqual([]);
    const error = await errorOf(
      client.createConnector({
        name: "x",
        config: { kind: { case: "sandbox", value: { provider: CloudProvider.AWS } } },
      }),
    );
    expect(error.code).toBe(Code.FailedPrecondition);
    expect(error.rawMessage).toMatch(/PALISADE_SANDBOX=false/);
  });
});

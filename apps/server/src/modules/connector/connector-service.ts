import { randomBytes, randomUUID, X509Certificate } from "node:crypto";
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import {
  CloudProvider as CloudProviderEnum,
  ScopeType,
} from "@palisade/api/gen/palisade/common/v1/common_pb";
import {
  AwsConnectorConfigSchema,
  AzureConnectorConfigSchema,
  AzureCredentialType,
  type Connector,
  type ConnectorConfig,
  ConnectorSchema,
  ConnectorStatus,
  type HierarchyNode,
  HierarchyNodeSchema,
  SandboxConnectorConfigSchema,
} from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import type { ConnectorService } from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { createAwsProvider } from "../../cloud/aws/aws-provider";
import { createAzureProvider } from "../../cloud/azure/azure-provider";
import type { CloudProvider, HierarchyNodeType, ProviderName } from "../../cloud/cloud-provider";
import type { Database } from "../../db/database";
import { type Caller, callContext, requireCaller } from "../../rpc/call-context";
import { pageResponse, pageWindow } from "../../rpc/pagination";
import { writeAudit } from "../audit/audit-log";
import {
  type ConnectorRow,
  countActiveDeployments,
  deleteConnector,
  findConnector,
  type HierarchyNodeRow,
  insertConnector,
  listConnectors,
  listHierarchyNodes,
  type StoredConfig,
  updateConnector,
} from "./connector-repository";
import {
  type ConnectorRuntime,
  type ConnectorSettings,
  describeCloudFailure,
  SandboxNotRunningError,
  type StoredSecret,
} from "./connector-runtime";
import type { SecretBox } from "./secret-box";
import { awsSetup, azureSetup, SANDBOX_MARKDOWN } from "./setup-instructions";

const MAX_NAME = 80;
const MAX_SECRET = 1024;
const MAX_CERTIFICATE = 16 * 1024;
const ACCOUNT_ID = /^\d{12}$/;
const ROLE_ARN = /^arn:aws(?:-[a-z]+)*:iam::(\d{12}):role\/[\w+=,.@/-]{1,512}$/;
const REGION = /^[a-z]{2}(?:-[a-z]+)+-\d{1,2}$/;
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DEFAULT_REGION = "us-east-1";
const KIND_LABEL: Record<string, string> = {
  aws: "An AWS connector",
  azure: "An Azure connector",
  sandbox: "A sandbox connector",
};

const STATUS: Record<string, ConnectorStatus> = {
  NEVER_SYNCED: ConnectorStatus.NEVER_SYNCED,
  SYNCING: ConnectorStatus.SYNCING,
  CONNECTED: ConnectorStatus.CONNECTED,
  ERROR: ConnectorStatus.ERROR,
};

const SCOPE_TYPES: Record<HierarchyNodeType, ScopeType> = {
  AWS_ORGANIZATION_ROOT: ScopeType.AWS_ORGANIZATION_ROOT,
  AWS_OU: ScopeType.AWS_OU,
  AWS_ACCOUNT: ScopeType.AWS_ACCOUNT,
  AZURE_MANAGEMENT_GROUP: ScopeType.AZURE_MANAGEMENT_GROUP,
  AZURE_SUBSCRIPTION: ScopeType.AZURE_SUBSCRIPTION,
  AZURE_RESOURCE_GROUP: ScopeType.AZURE_RESOURCE_GROUP,
};

const providerEnum = (provider: string) =>
  provider === "aws" ? CloudProviderEnum.AWS : CloudProviderEnum.AZURE;

function providerName(value: CloudProviderEnum | undefined, field: string): ProviderName {
  if (value === CloudProviderEnum.AWS) return "aws";
  if (value === CloudProviderEnum.AZURE) return "azure";
  throw new ConnectError(`${field} must be AWS or AZURE.`, Code.InvalidArgument);
}

function invalid(message: string): never {
  throw new ConnectError(message, Code.InvalidArgument);
}

function connectorMessage(row: ConnectorRow): Connector {
  const config = row.config as StoredConfig;
  let kind: ConnectorConfig["kind"];
  if (row.kind === "sandbox") {
    kind = {
      case: "sandbox",
      value: create(SandboxConnectorConfigSchema, { provider: providerEnum(config.provider) }),
    };
  } else if ("roleArn" in config) {
    kind = {
      case: "aws",
      value: create(AwsConnectorConfigSchema, {
        managementAccountId: config.managementAccountId,
        roleArn: config.roleArn,
        externalId: config.externalId,
        region: config.region,
      }),
    };
  } else if ("clientId" in config) {
    // The secret and the certificate's key are never returned.
    kind = {
      case: "azure",
      value: create(AzureConnectorConfigSchema, {
        tenantId: config.tenantId,
        clientId: config.clientId,
        credentialType:
          config.credentialType === "CERTIFICATE"
            ? AzureCredentialType.CERTIFICATE
            : AzureCredentialType.CLIENT_SECRET,
        certificateThumbprint: config.certificateThumbprint,
      }),
    };
  } else {
    kind = { case: undefined };
  }
  return create(ConnectorSchema, {
    entity: {
      id: row.id,
      createdAt: timestampFromDate(row.createdAt),
      updatedAt: timestampFromDate(row.updatedAt),
    },
    name: row.name,
    provider: providerEnum(config.provider),
    status: STATUS[row.status] ?? ConnectorStatus.UNSPECIFIED,
    lastSyncAt: row.lastSyncAt ? timestampFromDate(row.lastSyncAt) : undefined,
    lastError: row.status === "ERROR" ? (row.lastError ?? "") : "",
    config: { kind },
  });
}

/** Parent-child tree of the stored nodes; nodes whose parent is not stored become roots. */
export function hierarchyTree(rows: HierarchyNodeRow[]): HierarchyNode[] {
  const nodes = new Map<string, { row: HierarchyNodeRow; message: HierarchyNode }>();
  for (const row of rows) {
    nodes.set(`${row.connectorId}|${row.externalId.toLowerCase()}`, {
      row,
      message: create(HierarchyNodeSchema, {
        entity: {
          id: row.id,
          createdAt: timestampFromDate(row.createdAt),
          updatedAt: timestampFromDate(row.updatedAt),
        },
        name: row.name,
        provider: providerEnum(row.provider),
        connectorId: row.connectorId,
        link: row.link ?? "",
        type: SCOPE_TYPES[row.type as HierarchyNodeType] ?? ScopeType.UNSPECIFIED,
        externalId: row.externalId,
      }),
    });
  }
  const roots: HierarchyNode[] = [];
  for (const { row, message } of nodes.values()) {
    const parent = row.parentExternalId
      ? nodes.get(`${row.connectorId}|${row.parentExternalId.toLowerCase()}`)
      : undefined;
    if (parent && parent.message !== message) parent.message.children.push(message);
    else roots.push(message);
  }
  return roots;
}

function certificateThumbprint(pem: string): string {
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem)) {
    invalid(
      "config.azure.client_certificate_pem must contain the private key as well as the certificate (PEM).",
    );
  }
  try {
    return new X509Certificate(pem).fingerprint.replaceAll(":", "");
  } catch {
    invalid("config.azure.client_certificate_pem does not hold a readable X.509 certificate (PEM).");
  }
}

/** Reads and checks a configuration; `previous` supplies what an update may leave out. */
function readConfig(
  input: ConnectorConfig | undefined,
  previous: { config: StoredConfig; secret: StoredSecret } | undefined,
  sandboxRunning: boolean,
): { kind: "aws" | "azure" | "sandbox"; config: StoredConfig; secret: StoredSecret } {
  const kind = input?.kind;
  switch (kind?.case) {
    case "aws": {
      const value = kind.value;
      const managementAccountId = value.managementAccountId.trim();
      if (!ACCOUNT_ID.test(managementAccountId))
        invalid(
          "config.aws.management_account_id must be the 12-digit id of the organisation's management account.",
        );
      const roleArn = value.roleArn.trim();
      const match = ROLE_ARN.exec(roleArn);
      if (!match)
        invalid(
          'config.aws.role_arn must be an IAM role ARN such as "arn:aws:iam::111122223333:role/PalisadeConnector".',
        );
      if (match[1] !== managementAccountId)
        invalid(`config.aws.role_arn must be a role in the management account ${managementAccountId}.`);
      const region = value.region.trim() || DEFAULT_REGION;
      if (!REGION.test(region))
        invalid(`config.aws.region "${region}" is not an AWS region such as us-east-1.`);
      const externalId =
        previous && "externalId" in previous.config
          ? previous.config.externalId
          : `palisade-${randomBytes(16).toString("hex")}`;
      return {
        kind: "aws",
        config: { provider: "aws", managementAccountId, roleArn, externalId, region },
        secret: {},
      };
    }
    case "azure": {
      const value = kind.value;
      const tenantId = value.tenantId.trim();
      const clientId = value.clientId.trim();
      if (!GUID.test(tenantId)) invalid("config.azure.tenant_id must be the directory (tenant) id, a GUID.");
      if (!GUID.test(clientId))
        invalid("config.azure.client_id must be the application (client) id, a GUID.");
      const before = previous && "clientId" in previous.config ? previous : undefined;
      if (value.credentialType === AzureCredentialType.CERTIFICATE) {
        const pem = value.clientCertificatePem?.trim() || before?.secret.certificatePem;
        if (!pem) invalid("config.azure.client_certificate_pem is required for certificate credentials.");
        if (pem.length > MAX_CERTIFICATE)
          invalid(`config.azure.client_certificate_pem must be at most ${MAX_CERTIFICATE} characters.`);
        return {
          kind: "azure",
          config: {
            provider: "azure",
            tenantId,
            clientId,
            credentialType: "CERTIFICATE",
            certificateThumbprint: certificateThumbprint(pem),
          },
          secret: { certificatePem: pem },
        };
      }
      if (value.credentialType !== AzureCredentialType.CLIENT_SECRET)
        invalid("config.azure.credential_type must be CLIENT_SECRET or CERTIFICATE.");
      const clientSecret = value.clientSecret || before?.secret.clientSecret;
      if (!clientSecret) invalid("config.azure.client_secret is required for client secret credentials.");
      if (clientSecret.length > MAX_SECRET)
        invalid(`config.azure.client_secret must be at most ${MAX_SECRET} characters.`);
      return {
        kind: "azure",
        config: {
          provider: "azure",
          tenantId,
          clientId,
          credentialType: "CLIENT_SECRET",
          certificateThumbprint: "",
        },
        secret: { clientSecret },
      };
    }
    case "sandbox": {
      const provider = providerName(kind.value.provider, "config.sandbox.provider");
      if (!sandboxRunning) {
        throw new ConnectError(new SandboxNotRunningError().message, Code.FailedPrecondition);
      }
      return { kind: "sandbox", config: { provider }, secret: {} };
    }
    default:
      return invalid("config must be one of aws, azure or sandbox.");
  }
}

function readName(raw: string): string {
  const name = raw.trim();
  if (name.length < 1 || name.length > MAX_NAME) invalid(`name must be 1 to ${MAX_NAME} characters.`);
  return name;
}

export interface ConnectorServiceDeps {
  db: Database;
  secretBox: SecretBox;
  runtime: ConnectorRuntime;
  /** The IAM principal the server calls AssumeRole as, for the AWS trust policy. */
  awsPrincipalArn: string | undefined;
}

/** Creates a connector directly, for the local run's sandbox connectors (no RPC caller). */
export async function createSandboxConnector(
  deps: Pick<ConnectorServiceDeps, "db">,
  tenantId: string,
  provider: ProviderName,
  name: string,
): Promise<ConnectorRow> {
  return insertConnector(deps.db, { tenantId, name, kind: "sandbox", config: { provider }, createdBy: null });
}

export function createConnectorService(deps: ConnectorServiceDeps): ServiceImpl<typeof ConnectorService> {
  const { db, secretBox, runtime } = deps;

  async function existing(caller: Caller, id: string): Promise<ConnectorRow> {
    const row = id ? await findConnector(db, caller.tenantId, id) : undefined;
    if (!row) throw new ConnectError("No such connector in this tenant.", Code.NotFound);
    return row;
  }

  async function audit(
    ctx: HandlerContext,
    action: string,
    targetId: string,
    details: Record<string, unknown> = {},
  ) {
    await writeAudit(db, callContext(ctx), {
      action: `ConnectorService.${action}`,
      targetType: "connector",
      targetId,
      details,
    });
  }

  function seal(secret: StoredSecret, connectorId: string): string | null {
    return Object.keys(secret).length > 0 ? secretBox.seal(JSON.stringify(secret), connectorId) : null;
  }

  async function runChecks(settings: ConnectorSettings) {
    let provider: CloudProvider | undefined;
    try {
      const connection = runtime.connectionFor(settings);
      provider =
        connection.provider === "aws"
          ? createAwsProvider(connection.connection)
          : createAzureProvider(connection.connection);
      return await provider.verify();
    } catch (error) {
      return [{ name: "Connect", ok: false, message: describeCloudFailure(error) }];
    } finally {
      provider?.close();
    }
  }

  return {
    async createConnector(req, ctx) {
      const caller = requireCaller(ctx);
      const name = readName(req.name);
      const { kind, config, secret } = readConfig(req.config, undefined, runtime.sandbox() !== undefined);
      const id = randomUUID();
      const row = await insertConnector(db, {
        id,
        tenantId: caller.tenantId,
        name,
        kind,
        config,
        secretCiphertext: seal(secret, id),
        createdBy: caller.id,
      });
      await audit(ctx, "CreateConnector", row.id, { name, kind, provider: config.provider });
      return { connector: connectorMessage(row) };
    },

    async testConnector(req, ctx) {
      const caller = requireCaller(ctx);
      const target = req.target;
      if (target.case === "id") {
        const row = await existing(caller, target.value);
        const checks = await runChecks(runtime.settingsOf(row));
        const failed = checks.find((c) => !c.ok);
        const fresh = (await findConnector(db, caller.tenantId, row.id)) ?? row;
        if (failed) {
          await updateConnector(db, caller.tenantId, row.id, {
            status: "ERROR",
            lastError: `${failed.name}: ${failed.message}`,
          });
        } else if (fresh.status === "ERROR") {
          await updateConnector(db, caller.tenantId, row.id, {
            status: fresh.lastSyncAt ? "CONNECTED" : "NEVER_SYNCED",
            lastError: null,
          });
        }
        await audit(ctx, "TestConnector", row.id, { ok: !failed });
        return { ok: !failed, checks };
      }
      if (target.case === "config") {
        const { kind, config, secret } = readConfig(target.value, undefined, runtime.sandbox() !== undefined);
        // An unsaved AWS configuration has no external id yet unless the caller copied one in.
        if ("externalId" in config && target.value.kind.case === "aws") {
          config.externalId = target.value.kind.value.externalId.trim();
          if (!config.externalId) {
            return {
              ok: false,
              checks: [
                {
                  name: "Assume role",
                  ok: false,
                  message:
                    "Create the connector first: its external id, which the role's trust policy must require, is generated then.",
                },
              ],
            };
          }
        }
        const checks = await runChecks({ kind, config, secret });
        return { ok: checks.every((c) => c.ok), checks };
      }
      return invalid("Give the id of a connector or a configuration to test.");
    },

    async listConnectors(req, ctx) {
      const caller = requireCaller(ctx);
      const window = pageWindow(req.pagination);
      const provider = req.provider === undefined ? undefined : providerName(req.provider, "provider");
      const { rows, total } = await listConnectors(db, caller.tenantId, window, provider);
      return { items: rows.map(connectorMessage), pagination: pageResponse(total, window) };
    },

    async getConnector(req, ctx) {
      const caller = requireCaller(ctx);
      return { connector: connectorMessage(await existing(caller, req.id)) };
    },

    async updateConnector(req, ctx) {
      const caller = requireCaller(ctx);
      const row = await existing(caller, req.id);
      const patch: Parameters<typeof updateConnector>[3] = {};
      const changed: string[] = [];
      if (req.name !== undefined) {
        patch.name = readName(req.name);
        changed.push("name");
      }
      if (req.config?.kind.case) {
        const before = runtime.settingsOf(row);
        const next = readConfig(
          req.config,
          { config: before.config, secret: before.secret },
          runtime.sandbox() !== undefined,
        );
        if (next.kind !== row.kind || next.config.provider !== before.config.provider) {
          throw new ConnectError(
            `${KIND_LABEL[row.kind] ?? "A connector"} stays one; create a new connector for another kind or provider.`,
            Code.InvalidArgument,
          );
        }
        patch.config = next.config;
        patch.secretCiphertext = seal(next.secret, row.id);
        changed.push("config");
      }
      if (changed.length === 0) return { connector: connectorMessage(row) };
      const updated = (await updateConnector(db, caller.tenantId, row.id, patch)) ?? row;
      if (patch.config) runtime.forget(row.id);
      await audit(ctx, "UpdateConnector", row.id, { changed });
      return { connector: connectorMessage(updated) };
    },

    async deleteConnector(req, ctx) {
      const caller = requireCaller(ctx);
      const row = await existing(caller, req.id);
      const inUse = await countActiveDeployments(db, caller.tenantId, row.id);
      if (inUse > 0) {
        throw new ConnectError(
          `${inUse} deployment(s) still use this connector; delete or move their bundles first.`,
          Code.FailedPrecondition,
        );
      }
      await deleteConnector(db, caller.tenantId, row.id);
      runtime.forget(row.id);
      await audit(ctx, "DeleteConnector", row.id, { name: row.name, kind: row.kind });
      return {};
    },

    async syncHierarchy(req, ctx) {
      const caller = requireCaller(ctx);
      const row = await existing(caller, req.id);
      if (row.kind === "sandbox" && !runtime.sandbox()) {
        throw new ConnectError(new SandboxNotRunningError().message, Code.FailedPrecondition);
      }
      const jobId = await runtime.startSync(row, caller.id);
      await audit(ctx, "SyncHierarchy", row.id, { jobId });
      return { jobId };
    },

    async listHierarchy(req, ctx) {
      const caller = requireCaller(ctx);
      if (req.connectorId !== undefined) await existing(caller, req.connectorId);
      const provider = req.provider === undefined ? undefined : providerName(req.provider, "provider");
      const rows = await listHierarchyNodes(db, caller.tenantId, {
        connectorIds: req.connectorId === undefined ? undefined : [req.connectorId],
        provider,
      });
      return { roots: hierarchyTree(rows) };
    },

    async getSetupInstructions(req, ctx) {
      const caller = requireCaller(ctx);
      const target = req.target;
      let provider: ProviderName;
      let config: StoredConfig | undefined;
      if (target.case === "connectorId") {
        const row = await existing(caller, target.value);
        config = row.config as StoredConfig;
        if (row.kind === "sandbox") return { instructions: { case: undefined }, markdown: SANDBOX_MARKDOWN };
        provider = config.provider;
      } else if (target.case === "provider") {
        provider = providerName(target.value, "provider");
      } else {
        return invalid("Give a connector id or a provider.");
      }
      if (provider === "aws") {
        const setup = awsSetup({
          principalArn: deps.awsPrincipalArn,
          externalId: config && "externalId" in config ? config.externalId : undefined,
        });
        const { markdown, ...aws } = setup;
        return { instructions: { case: "aws", value: aws }, markdown };
      }
      const setup = azureSetup(config && "tenantId" in config ? config.tenantId : undefined);
      return {
        instructions: { case: "azure", value: { roleAssignments: setup.roleAssignments } },
        markdown: setup.markdown,
      };
    },
  };
}

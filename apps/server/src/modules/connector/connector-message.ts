import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  AwsConnectorConfigSchema,
  AwsPolicyType as AwsPolicyTypeEnum,
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
import { AWS_POLICY_TYPES } from "@palisade/policy-engine/catalogue/definition-schema";
import { cloudProviderOf, scopeTypeOf } from "../../rpc/common-message";
import {
  type ConnectorRow,
  type HierarchyNodeRow,
  READ_NAMES,
  type ReadFailures,
  type StoredConfig,
} from "./connector-repository";
import { statedLimits } from "./policy-quotas";

/** The quotas the connector states, one entry per type that has any (0: AWS's default). */
function policyLimitsMessage(config: StoredConfig) {
  return AWS_POLICY_TYPES.flatMap((type) => {
    const stated = statedLimits(config, type);
    if (stated.characters === undefined && stated.perTarget === undefined) return [];
    return [
      {
        type: AwsPolicyTypeEnum[type],
        maxCharacters: stated.characters ?? 0,
        maxPerTarget: stated.perTarget ?? 0,
      },
    ];
  });
}

const STATUS: Record<string, ConnectorStatus> = {
  NEVER_SYNCED: ConnectorStatus.NEVER_SYNCED,
  SYNCING: ConnectorStatus.SYNCING,
  CONNECTED: ConnectorStatus.CONNECTED,
  ERROR: ConnectorStatus.ERROR,
};

function configMessage(row: ConnectorRow): ConnectorConfig["kind"] {
  const config = row.config as StoredConfig;
  if (row.kind === "sandbox") {
    return {
      case: "sandbox",
      value: create(SandboxConnectorConfigSchema, { provider: cloudProviderOf(config.provider) }),
    };
  }
  if ("roleArn" in config) {
    return {
      case: "aws",
      value: create(AwsConnectorConfigSchema, {
        managementAccountId: config.managementAccountId,
        roleArn: config.roleArn,
        externalId: config.externalId,
        region: config.region,
        scpMaxCharacters: statedLimits(config, "SERVICE_CONTROL_POLICY").characters ?? 0,
        scpMaxPerTarget: statedLimits(config, "SERVICE_CONTROL_POLICY").perTarget ?? 0,
        policyLimits: policyLimitsMessage(config),
        trail: config.trail,
      }),
    };
  }
  if ("clientId" in config) {
    // The secret and the certificate's key are never returned.
    return {
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
  }
  return { case: undefined };
}

export function connectorMessage(row: ConnectorRow): Connector {
  const config = row.config as StoredConfig;
  return create(ConnectorSchema, {
    entity: {
      id: row.id,
      createdAt: timestampFromDate(row.createdAt),
      updatedAt: timestampFromDate(row.updatedAt),
    },
    name: row.name,
    provider: cloudProviderOf(config.provider),
    status: STATUS[row.status] ?? ConnectorStatus.UNSPECIFIED,
    lastSyncAt: row.lastSyncAt ? timestampFromDate(row.lastSyncAt) : undefined,
    lastError: [
      row.status === "ERROR" ? (row.lastError ?? "") : "",
      ...Object.entries(row.readFailures).map(
        ([read, reason]) => `${READ_NAMES[read as keyof ReadFailures]} not read: ${reason}`,
      ),
    ]
      .filter(Boolean)
      .join(" "),
    config: { kind: configMessage(row) },
    eventsError: row.eventsError ?? "",
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
        provider: cloudProviderOf(row.provider),
        connectorId: row.connectorId,
        link: row.link ?? "",
        type: scopeTypeOf(row.type),
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

import { Code, ConnectError } from "@connectrpc/connect";
import type { AwsPolicyType } from "@palisade/policy-engine/catalogue/definition-schema";
import { createAwsProvider } from "../../cloud/aws/aws-provider";
import { createAzureProvider } from "../../cloud/azure/azure-provider";
import type { CloudProvider, ConnectionCheck, ProviderName } from "../../cloud/cloud-provider";
import type { Database } from "../../db/database";
import { type ConnectorRow, findConnector, insertConnector } from "./connector-repository";
import {
  type ConnectorRuntime,
  type ConnectorSettings,
  describeCloudFailure,
  SandboxNotRunningError,
  type StoredSecret,
} from "./connector-runtime";
import { DEFAULT_POLICY_LIMITS, type PolicyLimits, policyLimitsOf } from "./policy-quotas";
import { NEEDED_POLICY_TYPES, type PolicyTypeState, policyTypeReport } from "./policy-type-report";
import type { SecretBox } from "./secret-box";

export interface ConnectorServiceDeps {
  db: Database;
  secretBox: SecretBox;
  runtime: ConnectorRuntime;
  /** The IAM principal the server calls AssumeRole as, for the AWS trust policy. */
  awsPrincipalArn: string | undefined;
}

/** A connector of the tenant, or NotFound; an empty id finds nothing. */
export async function requireConnector(db: Database, tenantId: string, id: string): Promise<ConnectorRow> {
  const row = id ? await findConnector(db, tenantId, id) : undefined;
  if (!row) throw new ConnectError("No such connector in this tenant.", Code.NotFound);
  return row;
}

/** The secret sealed to its connector, or null when the kind has none. */
export function sealSecret(secretBox: SecretBox, secret: StoredSecret, connectorId: string): string | null {
  return Object.keys(secret).length > 0 ? secretBox.seal(JSON.stringify(secret), connectorId) : null;
}

/**
 * Checks settings against the cloud with a provider of their own, closed afterwards, so a test
 * of unsaved settings never touches the stored connector's provider.
 */
export async function runChecks(
  runtime: ConnectorRuntime,
  settings: ConnectorSettings,
): Promise<{ checks: ConnectionCheck[]; policyTypes: PolicyTypeState[] }> {
  let provider: CloudProvider | undefined;
  try {
    const connection = runtime.connectionFor(settings);
    provider =
      connection.provider === "aws"
        ? createAwsProvider(connection.connection)
        : createAzureProvider(connection.connection);
    const checks = await provider.verify();
    // The policy types, once the organisation could be read (its own check says why not).
    if (provider.provider !== "aws" || !checks.some((c) => c.name === "Read the organisation" && c.ok))
      return { checks, policyTypes: [] };
    const report = policyTypeReport(await provider.readRootPolicyTypes(), NEEDED_POLICY_TYPES);
    return { checks: [...checks, ...report.checks], policyTypes: report.states };
  } catch (error) {
    return {
      checks: [{ name: "Connect", ok: false, message: describeCloudFailure(error) }],
      policyTypes: [],
    };
  } finally {
    provider?.close();
  }
}

/**
 * The management account of the organisation an AWS connector reaches; undefined for an Azure
 * connector, or a sandbox connector while the sandbox is not running.
 */
export async function awsManagementAccountOf(
  deps: { db: Database; runtime: ConnectorRuntime },
  tenantId: string,
  connectorId: string,
): Promise<string | undefined> {
  const row = await findConnector(deps.db, tenantId, connectorId);
  if (!row) return undefined;
  try {
    const connection = deps.runtime.connectionFor(deps.runtime.settingsOf(row));
    return connection.provider === "aws" ? connection.connection.managementAccountId : undefined;
  } catch (error) {
    if (error instanceof SandboxNotRunningError) return undefined;
    throw error;
  }
}

/** Creates a connector directly, for the local run's sandbox connectors (no RPC caller). */
export async function createSandboxConnector(
  db: Database,
  tenantId: string,
  provider: ProviderName,
  name: string,
): Promise<ConnectorRow> {
  return insertConnector(db, { tenantId, name, kind: "sandbox", config: { provider }, createdBy: null });
}

/** A connector's quotas for a type; AWS's defaults without a connector. */
export async function policyQuotasFor(
  db: Database,
  tenantId: string,
  connectorId: string | null,
  type: AwsPolicyType,
): Promise<PolicyLimits> {
  if (!connectorId) return DEFAULT_POLICY_LIMITS[type];
  return policyLimitsOf((await findConnector(db, tenantId, connectorId))?.config, type);
}

import type { SandboxCloud } from "@palisade/sandbox-cloud/start-sandbox-cloud";
import { type AwsConnection, createAwsProvider } from "../../cloud/aws/aws-provider";
import { type AzureConnection, createAzureProvider } from "../../cloud/azure/azure-provider";
import type { CloudProvider } from "../../cloud/cloud-provider";
import { entraErrorNumber, errorCode, errorMessage, errorStatus, isUnreachable } from "../../cloud/errors";
import { sandboxAwsConnection, sandboxAzureConnection } from "../../cloud/sandbox-endpoints";
import type { Database } from "../../db/database";
import { finishJobRecord, insertJobRecord } from "../../jobs/job-record-repository";
import type { Logger } from "../../logger";
import {
  type ConnectorRow,
  listHierarchyNodes,
  replaceHierarchy,
  type StoredConfig,
  updateConnector,
} from "./connector-repository";
import { HierarchyRefusedError, refuseMassRemoval } from "./hierarchy-guard";
import type { SecretBox } from "./secret-box";

/** What is encrypted in `connectors.secret_ciphertext`. */
export interface StoredSecret {
  clientSecret?: string;
  certificatePem?: string;
}

export type Connection =
  | { provider: "aws"; connection: AwsConnection }
  | { provider: "azure"; connection: AzureConnection };

/** A connector's settings as they will be used, whether stored or only being tested. */
export interface ConnectorSettings {
  kind: string;
  config: StoredConfig;
  secret: StoredSecret;
}

export class SandboxNotRunningError extends Error {
  override name = "SandboxNotRunningError";
  constructor() {
    super(
      "The sandbox cloud is not running on this server (PALISADE_SANDBOX=false); sandbox connectors cannot be reached.",
    );
  }
}

export interface ConnectorRuntime {
  connectionFor(settings: ConnectorSettings): Connection;
  /** The provider of a stored connector; one per connector, so its concurrency bound holds across callers. */
  providerFor(row: ConnectorRow): CloudProvider;
  settingsOf(row: ConnectorRow): ConnectorSettings;
  sandbox(): SandboxCloud | undefined;
  /** Starts a hierarchy sync in the background, or returns the one already running. */
  startSync(row: ConnectorRow, createdBy: string | null): Promise<string>;
  /** Forgets a connector's provider after its settings changed or it was removed. */
  forget(connectorId: string): void;
  /** Waits for background syncs and closes the providers. */
  close(): Promise<void>;
}

/**
 * Entra ID's refusals of the connector's own credentials, each with what to do
 * (https://learn.microsoft.com/en-us/entra/identity-platform/reference-error-codes). Nothing the
 * connector reads or writes works until the credential is fixed.
 */
export const SIGN_IN_FAILURES: Readonly<Record<string, string>> = {
  "7000222":
    "Client secret expired: create a new secret for the app registration and update the connector with it (AADSTS7000222).",
  "7000215":
    "Client secret invalid: enter the secret's value (not its id) in the connector, or create a new secret (AADSTS7000215).",
  "700016":
    "Application not found in the tenant: check the connector's tenant id and client id (AADSTS700016).",
  "700027":
    "Client certificate not accepted: upload the connector's certificate to the app registration, or update the connector (AADSTS700027).",
};

/** The sentence for a refusal of the connector's credentials; undefined for any other failure. */
export function signInFailure(error: unknown): string | undefined {
  const number = entraErrorNumber(error);
  return number ? SIGN_IN_FAILURES[number] : undefined;
}

/** A sentence saying what went wrong in the cloud and what to do about it. */
export function describeCloudFailure(error: unknown): string {
  if (error instanceof SandboxNotRunningError || error instanceof HierarchyRefusedError) return error.message;
  const signIn = signInFailure(error);
  if (signIn) return signIn;
  if (isUnreachable(error)) return `The cloud endpoint could not be reached: ${errorMessage(error)}.`;
  const code = errorCode(error);
  if (/AccessDenied|AuthorizationFailed/.test(code) || errorStatus(error) === 403)
    return `Permission denied (${code || "403"}): ${errorMessage(error)} Test the connector to see which permission is missing.`;
  if (/TooManyRequests|Throttl/.test(code) || errorStatus(error) === 429)
    return "The cloud provider kept throttling Palisade's calls; try again in a few minutes.";
  return errorMessage(error);
}

export function createConnectorRuntime(deps: {
  db: Database;
  secretBox: SecretBox;
  logger: Logger;
  sandbox: () => SandboxCloud | undefined;
}): ConnectorRuntime {
  const { db, secretBox, logger } = deps;
  const providers = new Map<string, { version: string; provider: CloudProvider }>();
  const running = new Map<string, string>();
  const tasks = new Set<Promise<void>>();
  /** The scopes of each connector's last refused hierarchy read. */
  const refusedReads = new Map<string, string>();

  function settingsOf(row: ConnectorRow): ConnectorSettings {
    const secret = row.secretCiphertext
      ? (JSON.parse(secretBox.open(row.secretCiphertext, row.id)) as StoredSecret)
      : {};
    return { kind: row.kind, config: row.config as StoredConfig, secret };
  }

  function connectionFor({ kind, config, secret }: ConnectorSettings): Connection {
    if (kind === "sandbox") {
      const cloud = deps.sandbox();
      if (!cloud) throw new SandboxNotRunningError();
      return config.provider === "aws"
        ? { provider: "aws", connection: sandboxAwsConnection(cloud) }
        : { provider: "azure", connection: sandboxAzureConnection(cloud) };
    }
    if ("roleArn" in config) {
      return {
        provider: "aws",
        connection: {
          region: config.region,
          managementAccountId: config.managementAccountId,
          roleArn: config.roleArn,
          externalId: config.externalId,
          consoleLinks: true,
          ...(config.trail ? { trail: config.trail } : {}),
        },
      };
    }
    if ("clientId" in config) {
      const credential =
        config.credentialType === "CERTIFICATE"
          ? ({ kind: "certificate", pem: secret.certificatePem ?? "" } as const)
          : ({ kind: "secret", clientSecret: secret.clientSecret ?? "" } as const);
      return {
        provider: "azure",
        connection: { tenantId: config.tenantId, clientId: config.clientId, credential, consoleLinks: true },
      };
    }
    throw new Error(`Connector of kind ${kind} has no usable configuration`);
  }

  function create(connection: Connection): CloudProvider {
    return connection.provider === "aws"
      ? createAwsProvider(connection.connection)
      : createAzureProvider(connection.connection);
  }

  function providerFor(row: ConnectorRow): CloudProvider {
    // Status changes touch the row too; only a change of settings needs a new provider.
    const version = JSON.stringify([
      row.config,
      row.secretCiphertext,
      row.kind === "sandbox" ? deps.sandbox()?.url : "",
      // A renewed client secret of the sandbox's app (POST /sandbox/control/client-secret).
      row.kind === "sandbox" ? deps.sandbox()?.azure.clientSecret : "",
      // The sandbox's propagation delay can change while it runs (POST /sandbox/control/propagation).
      row.kind === "sandbox" ? deps.sandbox()?.azure.policyPropagationSeconds : "",
    ]);
    const cached = providers.get(row.id);
    if (cached?.version === version) return cached.provider;
    cached?.provider.close();
    const provider = create(connectionFor(settingsOf(row)));
    providers.set(row.id, { version, provider });
    return provider;
  }

  async function runSync(row: ConnectorRow, jobId: string): Promise<void> {
    const started = performance.now();
    try {
      const provider = providerFor(row);
      const entries = await provider.listHierarchy();
      // SCPs written before Palisade tagged its own get the tag the connector's permissions need;
      // a failure is logged and does not fail the sync (the next sync tries again).
      if (provider.provider === "aws") {
        await provider.tagManagedScps().then(
          (tagged) => {
            if (tagged > 0) logger.info({ connectorId: row.id, tagged }, "untagged Palisade SCPs tagged");
          },
          (error) =>
            logger.warn(
              { connectorId: row.id, err: describeCloudFailure(error) },
              "tagging Palisade SCPs failed",
            ),
        );
      }
      const stored = await listHierarchyNodes(db, row.tenantId, { connectorIds: [row.id] });
      const refusal = refuseMassRemoval(
        stored.map((n) => n.externalId),
        entries.map((e) => e.externalId),
      );
      // A second read that finds the same scopes confirms the removal; anything else is refused.
      const read = entries
        .map((e) => e.externalId.toLowerCase())
        .sort()
        .join("\n");
      if (refusal && refusedReads.get(row.id) !== read) {
        refusedReads.set(row.id, read);
        throw new HierarchyRefusedError(refusal);
      }
      refusedReads.delete(row.id);
      await replaceHierarchy(db, row.tenantId, row.id, provider.provider, entries);
      const durationMs = Math.round(performance.now() - started);
      await updateConnector(db, row.tenantId, row.id, {
        status: "CONNECTED",
        lastSyncAt: new Date(),
        lastError: null,
      });
      await finishJobRecord(db, row.tenantId, jobId, {
        ok: true,
        result: { nodes: entries.length, durationMs },
      });
      logger.info({ connectorId: row.id, nodes: entries.length, durationMs }, "hierarchy synced");
    } catch (error) {
      const message = describeCloudFailure(error);
      logger.warn({ connectorId: row.id, err: message }, "hierarchy sync failed");
      await updateConnector(db, row.tenantId, row.id, { status: "ERROR", lastError: message }).catch(
        () => {},
      );
      await finishJobRecord(db, row.tenantId, jobId, { ok: false, error: message }).catch(() => {});
    }
  }

  return {
    connectionFor,
    providerFor,
    settingsOf,
    sandbox: deps.sandbox,
    async startSync(row, createdBy) {
      const current = running.get(row.id);
      if (current) return current;
      const jobId = await insertJobRecord(db, {
        tenantId: row.tenantId,
        kind: "connector.sync",
        createdBy,
        status: "RUNNING",
      });
      running.set(row.id, jobId);
      await updateConnector(db, row.tenantId, row.id, { status: "SYNCING" });
      const task = runSync(row, jobId).finally(() => {
        running.delete(row.id);
        tasks.delete(task);
      });
      tasks.add(task);
      return jobId;
    },
    forget(connectorId) {
      providers.get(connectorId)?.provider.close();
      providers.delete(connectorId);
      refusedReads.delete(connectorId);
    },
    async close() {
      await Promise.allSettled([...tasks]);
      for (const { provider } of providers.values()) provider.close();
      providers.clear();
    },
  };
}

import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type SandboxCloud, startSandboxCloud } from "@palisade/sandbox-cloud/start-sandbox-cloud";
import type { Database } from "../db/database";
import type { Logger } from "../logger";
import { countTenantConnectors, findConnector } from "../modules/connector/connector-repository";
import { type ConnectorRuntime, createConnectorRuntime } from "../modules/connector/connector-runtime";
import { createSandboxConnector } from "../modules/connector/connectors";
import { createSecretBox, type SecretBox } from "../modules/connector/secret-box";
import { findTenantBySlug } from "../modules/tenant/tenant-repository";
import { loadSecretKey } from "../secrets";
import type { Config } from "./config";
import { connectRemoteSandbox, type RemoteSandbox } from "./remote-sandbox";

/** Written once the first start has connected the sandbox, so removing those connectors is final. */
const CONNECTED_MARKER = "connected-to-default-tenant";

export interface CloudConnections {
  /** What ConnectorService needs. */
  service: { secretBox: SecretBox; runtime: ConnectorRuntime; awsPrincipalArn: string | undefined };
  /** The sandbox in this process, or the one at SANDBOX_URL once it has answered. */
  readonly sandbox: SandboxCloud | undefined;
  /**
   * On first start, gives the default tenant a sandbox connector per provider and syncs their
   * hierarchies in the background.
   */
  connectSandbox(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The cloud side of the local run: the in-process sandbox cloud (unless PALISADE_SANDBOX=false, or
 * SANDBOX_URL names one running as its own process),
 * the connectors' secret box and the runtime that holds their providers and background syncs.
 */
export async function startCloudConnections(deps: {
  config: Config;
  db: Database;
  logger: Logger;
}): Promise<CloudConnections> {
  const { config, db, logger } = deps;
  // SANDBOX_URL: the sandbox runs as its own process (several replicas share it).
  const remote: RemoteSandbox | undefined =
    config.sandbox.enabled && config.sandbox.url
      ? connectRemoteSandbox(config.sandbox.url, logger)
      : undefined;
  const sandbox =
    config.sandbox.enabled && !remote
      ? await startSandboxCloud({
          dataDir: config.sandbox.dataDir,
          port: config.sandbox.port,
          activity: { enabled: config.sandbox.activity, actionsPerMinute: config.sandbox.actionsPerMinute },
          cloudTrailLookupsPerSecond: config.sandbox.cloudTrailLookupsPerSecond,
          maxAuditRecords: config.sandbox.maxAuditRecords,
          activityLogLagMs: config.sandbox.activityLogLagSeconds * 1000,
          azurePolicyPropagationSeconds: config.sandbox.azurePropagationSeconds,
          trailDeliveryDelaySeconds: config.sandbox.trailDeliveryDelaySeconds,
          logger: {
            info: (message) => logger.info({ component: "sandbox" }, message),
            warn: (message) => logger.warn({ component: "sandbox" }, message),
          },
        })
      : undefined;
  const secretBox = createSecretBox(loadSecretKey(config.dataDir));
  const current = () => remote?.current() ?? sandbox;
  const runtime = createConnectorRuntime({ db, secretBox, logger, sandbox: current });

  return {
    service: { secretBox, runtime, awsPrincipalArn: config.awsPrincipalArn },
    get sandbox() {
      return current();
    },
    async connectSandbox() {
      if (remote) await remote.ready(10_000);
      if (!current()) return;
      const marker = join(config.sandbox.dataDir, CONNECTED_MARKER);
      if (existsSync(marker)) return;
      const tenant = await findTenantBySlug(db, "default");
      if (!tenant) return;
      // A database that already has connectors was set up by someone; leave it as it is.
      if ((await countTenantConnectors(db, tenant.id)) === 0) {
        for (const [provider, name] of [
          ["aws", "Sandbox AWS organisation"],
          ["azure", "Sandbox Azure tenant"],
        ] as const) {
          const row = await createSandboxConnector(db, tenant.id, provider, name);
          const fresh = (await findConnector(db, tenant.id, row.id)) ?? row;
          await runtime.startSync(fresh, null);
          logger.info({ connectorId: row.id, provider }, "created sandbox connector");
        }
      }
      mkdirSync(config.sandbox.dataDir, { recursive: true });
      writeFileSync(marker, `${new Date().toISOString()}\n`);
    },
    async close() {
      await runtime.close();
      await remote?.close();
      await sandbox?.close();
    },
  };
}

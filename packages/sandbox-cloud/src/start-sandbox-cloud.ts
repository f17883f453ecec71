import { resolve } from "node:path";
import { startActivity } from "./activity/generator";
import {
  AZURE_POLICY_PROPAGATION_SECONDS,
  checkPropagationSeconds,
  type PolicyPropagation,
} from "./enforce/propagation";
import { listen } from "./http/listener";
import { loadOrCreateTls } from "./http/self-signed";
import { createSandboxApp } from "./sandbox-app";
import { openStateStore } from "./state/store";

export interface SandboxLogger {
  info(message: string): void;
  warn(message: string): void;
}

export interface StartSandboxOptions {
  dataDir: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  seed?: number;
  /** Generated user and application actions; on unless disabled, 12 per minute by default. */
  activity?: { enabled: boolean; actionsPerMinute?: number };
  logger?: SandboxLogger;
  /** Further names the TLS certificate is valid for (the host name other machines reach it at). */
  tlsNames?: string[];
  /**
   * The LookupEvents rate the sandbox states for CloudTrail (AWS: 2 per second), which clients
   * pace themselves to. Raised, it takes the provider's own limit out of a measurement.
   */
  cloudTrailLookupsPerSecond?: number;
  /** Records kept in each audit stream (CloudTrail, Activity Log, compliance states); 20,000 by default. */
  maxAuditRecords?: number;
  /**
   * The most an Activity Log event waits between happening and being listed (one minute by
   * default; Azure's events lag by minutes). Tests advance the sandbox clock past it.
   */
  activityLogLagMs?: number;
  /**
   * Seconds before a new or changed Azure policy assignment, or a new exemption, is enforced;
   * never zero. AZURE_POLICY_PROPAGATION_SECONDS (Microsoft's figure, doubled) by default.
   */
  azurePolicyPropagationSeconds?: number;
}

export interface SandboxCloud {
  url: string;
  aws: {
    endpoint: string;
    region: string;
    accessKeyId: string;
    secretAccessKey: string;
    managementAccountId: string;
    connectorRoleArn: string;
    externalId: string;
    /** LookupEvents calls per second a client may make (CloudTrail answers 2). */
    lookupEventsPerSecond: number;
  };
  azure: {
    armEndpoint: string;
    authorityHost: string;
    tenantId: string;
    clientId: string;
    clientSecret: string;
    caCertPem?: string;
    rootManagementGroupId: string;
    /** Seconds before a new or changed assignment or a new exemption is enforced (changed through /sandbox/control/propagation). */
    readonly policyPropagationSeconds: number;
  };
  close(): Promise<void>;
}

export const DEFAULT_SEED = 20240611;
/** CloudTrail answers LookupEvents at most twice a second per account and region. */
export const CLOUDTRAIL_LOOKUPS_PER_SECOND = 2;

export async function startSandboxCloud(options: StartSandboxOptions): Promise<SandboxCloud> {
  const host = options.host ?? "127.0.0.1";
  const dataDir = resolve(options.dataDir);
  const store = await openStateStore(dataDir, options.seed ?? DEFAULT_SEED, {
    maxAuditRecords: options.maxAuditRecords,
    activityLogLagMs: options.activityLogLagMs,
  });
  const tls = await loadOrCreateTls(dataDir, [host, ...(options.tlsNames ?? [])]);
  const propagation: PolicyPropagation = {
    seconds: checkPropagationSeconds(
      options.azurePolicyPropagationSeconds ?? AZURE_POLICY_PROPAGATION_SECONDS,
    ),
  };
  let cloud: SandboxCloud | undefined;
  const app = createSandboxApp(
    store,
    () => {
      const { close: _close, ...rest } = cloud!;
      return { ...rest, now: store.now().toISOString() };
    },
    propagation,
  );
  const listener = await listen((req) => app.handle(req), tls, host, options.port ?? 4510);
  const urlHost = host.includes(":") ? `[${host}]` : host;
  const url = `http://${urlHost}:${listener.port}`;
  const secureUrl = `https://${urlHost}:${listener.port}`;
  const { aws, azure } = store.state;
  const activity =
    (options.activity?.enabled ?? true)
      ? startActivity(store, {
          actionsPerMinute: options.activity?.actionsPerMinute ?? 12,
          seed: store.state.seed,
          logger: options.logger,
        })
      : undefined;
  cloud = {
    url,
    aws: {
      endpoint: url,
      region: "us-east-1",
      accessKeyId: aws.connector.accessKeyId,
      secretAccessKey: aws.connector.secretAccessKey,
      managementAccountId: aws.managementAccountId,
      connectorRoleArn: aws.connector.roleArn,
      externalId: aws.connector.externalId,
      lookupEventsPerSecond: options.cloudTrailLookupsPerSecond ?? CLOUDTRAIL_LOOKUPS_PER_SECOND,
    },
    azure: {
      armEndpoint: secureUrl,
      authorityHost: secureUrl,
      tenantId: azure.tenantId,
      clientId: azure.connector.clientId,
      // Renewed through /sandbox/control/client-secret.
      get clientSecret() {
        return store.state.azure.connector.clientSecret;
      },
      caCertPem: tls.caCertPem,
      rootManagementGroupId: azure.tenantId,
      get policyPropagationSeconds() {
        return propagation.seconds;
      },
    },
    async close() {
      activity?.stop();
      await listener.close();
      await store.flush();
    },
  };
  options.logger?.info(`sandbox cloud listening on ${url} (ARM and token endpoint on ${secureUrl})`);
  return cloud;
}

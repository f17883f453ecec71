import { join, resolve } from "node:path";
import { startActivity } from "./activity/generator";
import { openS3Objects } from "./aws/s3/s3-objects";
import { deliverDueLogFiles } from "./aws/trail-delivery";
import { activityLogLagMs } from "./azure/activity-log";
import {
  AZURE_POLICY_PROPAGATION_SECONDS,
  checkPropagationSeconds,
  type PolicyPropagation,
} from "./enforce/propagation";
import { listen } from "./http/listener";
import { loadOrCreateTls } from "./http/self-signed";
import { createSandboxApp } from "./sandbox-app";
import type { AwsState } from "./state/model";
import { DEFAULT_TRAIL_DELIVERY_DELAY_SECONDS, ensureDelegatedConnectorRole } from "./state/seed-trail";
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
  /**
   * Average seconds from a call to the organisation trail's delivery of its log file; AWS's
   * average of about 5 minutes (300) unless set. Must be positive: CloudTrail never delivers at once.
   */
  trailDeliveryDelaySeconds?: number;
}

/** Where the organisation trail delivers and who may read it, for a reader configured like a customer's. */
export interface OrganizationTrailInfo {
  name: string;
  arn: string;
  organizationId: string;
  logArchiveAccountId: string;
  bucket: string;
  bucketRegion: string;
  /** The trail's S3 key prefix ("" for none); log files lie under `${prefix}AWSLogs/<org-id>/`. */
  keyPrefix: string;
  readerRoleArn: string;
  /** The external id the reader role's trust policy requires (the connector's). */
  readerExternalId: string;
  deliveryDelaySeconds: number;
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
    /** The connector role in a member account, for a connector set up as delegated administrator. */
    delegatedConnectorRoleArn: string;
    externalId: string;
    /** LookupEvents calls per second a client may make (CloudTrail answers 2). */
    lookupEventsPerSecond: number;
    organizationTrail: OrganizationTrailInfo;
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
    /** The most seconds an Activity Log event waits between happening and being listed. */
    activityLogLagSeconds: number;
  };
  close(): Promise<void>;
}

export const DEFAULT_SEED = 20240611;

function organizationTrailInfo(aws: AwsState): OrganizationTrailInfo {
  const trail = aws.organizationTrail;
  const bucket = aws.s3Buckets.find((b) => b.name === trail.bucket)!;
  return {
    name: trail.name,
    arn: trail.arn,
    organizationId: aws.organizationId,
    logArchiveAccountId: trail.logArchiveAccountId,
    bucket: trail.bucket,
    bucketRegion: bucket.region,
    keyPrefix: trail.keyPrefix,
    readerRoleArn: trail.readerRoleArn,
    readerExternalId: aws.connector.externalId,
    deliveryDelaySeconds: trail.deliveryDelaySeconds,
  };
}
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
  const delay = options.trailDeliveryDelaySeconds ?? DEFAULT_TRAIL_DELIVERY_DELAY_SECONDS;
  if (!(delay > 0)) throw new Error("trailDeliveryDelaySeconds must be a positive number of seconds.");
  store.state.aws.organizationTrail.deliveryDelaySeconds = delay;
  const objects = openS3Objects(join(dataDir, "s3"));
  const lookupsPerSecond = options.cloudTrailLookupsPerSecond ?? CLOUDTRAIL_LOOKUPS_PER_SECOND;
  let cloud: SandboxCloud | undefined;
  const app = createSandboxApp(
    store,
    () => {
      const { close: _close, ...rest } = cloud!;
      return { ...rest, now: store.now().toISOString() };
    },
    propagation,
    { objects, lookupsPerSecond },
  );
  // Log files appear in the bucket when their delivery time comes, whether or not anyone is listing.
  const delivery = setInterval(() => deliverDueLogFiles(store, objects), 1000);
  delivery.unref();
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
      delegatedConnectorRoleArn: ensureDelegatedConnectorRole(store.state.aws),
      externalId: aws.connector.externalId,
      lookupEventsPerSecond: lookupsPerSecond,
      organizationTrail: organizationTrailInfo(store.state.aws),
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
      activityLogLagSeconds: activityLogLagMs(store) / 1000,
    },
    async close() {
      clearInterval(delivery);
      activity?.stop();
      await listener.close();
      await store.flush();
    },
  };
  options.logger?.info(`sandbox cloud listening on ${url} (ARM and token endpoint on ${secureUrl})`);
  return cloud;
}

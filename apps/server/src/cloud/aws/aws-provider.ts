import type { AwsCloudProvider } from "../cloud-provider";
import { type AwsSessionOptions, createAwsClients } from "./aws-clients";
import { listAwsHierarchy } from "./aws-hierarchy";
import { createPolicyTypeOperations } from "./aws-policy-types";
import { createScpOperations } from "./aws-scps";
import { tagManagedScps } from "./aws-tags";
import { verifyAwsConnection } from "./aws-verify";
import { readCloudTrailEvents } from "./cloudtrail-events";
import { createTrailReader } from "./trail-reader";
import { createTrailBucket, type TrailSettings } from "./trail-s3";
import { verifyTrail } from "./trail-verify";

/** What Palisade needs to reach one AWS organisation. */
export interface AwsConnection extends AwsSessionOptions {
  managementAccountId: string;
  /** Console links for the hierarchy; the sandbox has no console. */
  consoleLinks: boolean;
  /**
   * The organisation trail events are read from. Absent: LookupEvents as the connector's role,
   * which answers the management account's own events in `region` only.
   */
  trail?: TrailSettings;
}

/**
 * The permissions policy of the organisation trail's reader role: list the trail's folders, read
 * its log files, and decrypt them when the trail encrypts with SSE-KMS.
 */
export function trailReaderPolicy(bucket: string, keyPrefix: string) {
  const logs = keyPrefix ? `${keyPrefix}/AWSLogs/` : "AWSLogs/";
  return {
    Version: "2012-10-17",
    Statement: [
      {
        Sid: "ListTrailFolders",
        Effect: "Allow",
        Action: "s3:ListBucket",
        Resource: `arn:aws:s3:::${bucket}`,
        Condition: { StringLike: { "s3:prefix": [`${logs}*`] } },
      },
      {
        Sid: "ReadTrailFiles",
        Effect: "Allow",
        Action: "s3:GetObject",
        Resource: `arn:aws:s3:::${bucket}/${logs}*`,
      },
      {
        Sid: "DecryptTrailFiles",
        Effect: "Allow",
        Action: "kms:Decrypt",
        Resource: "arn:aws:kms:<REGION>:<LOG_ARCHIVE_ACCOUNT_ID>:key/<TRAIL_KMS_KEY_ID>",
      },
    ],
  };
}

export function createAwsProvider(connection: AwsConnection): AwsCloudProvider {
  const clients = createAwsClients(connection);
  const { trail } = connection;
  const taggedScps = new Set<string>();
  const bucket = trail
    ? createTrailBucket({
        trail,
        endpoint: connection.endpoint,
        baseCredentials: connection.baseCredentials,
        retry: connection.retry,
      })
    : undefined;
  return {
    provider: "aws",
    trail: trail && bucket ? createTrailReader(bucket, trail, connection.region) : undefined,
    verify: async () => {
      const checks = await verifyAwsConnection(clients, connection);
      return trail && bucket ? [...checks, ...(await verifyTrail(bucket, trail, connection.region))] : checks;
    },
    listHierarchy: () => listAwsHierarchy(clients, connection.consoleLinks),
    // With a trail, every reader reads what the trail reader stored (events, requests); LookupEvents
    // answers the management account's own events in `region` only.
    readAuditEvents: (cursor, options) => readCloudTrailEvents(clients, cursor, options),
    // SCPs have no audit mode, so there is no compliance state to read: ALERT deployments are
    // evaluated from the audit stream instead.
    readCompliance: async () => [],
    ...createScpOperations(clients),
    ...createPolicyTypeOperations(clients),
    tagManagedScps: () => tagManagedScps(clients, taggedScps),
    close() {
      clients.close();
      bucket?.close();
    },
  };
}

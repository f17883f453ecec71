import type { SandboxCloud } from "@palisade/sandbox-cloud/start-sandbox-cloud";
import type { AwsConnection } from "./aws/aws-provider";
import { DEFAULT_TRAIL_BACKFILL_DAYS } from "./aws/trail-s3";
import type { AzureConnection } from "./azure/azure-provider";

/**
 * The sandbox differs from a real organisation or tenant only by its endpoints and credentials:
 * these are the connections the production adapters are given for it. Events come from the
 * sandbox's organisation trail, read as a customer's is: the log-archive account's bucket, through
 * its reader role, as `/sandbox/info` names them.
 */
export function sandboxAwsConnection(cloud: SandboxCloud): AwsConnection {
  const trail = cloud.aws.organizationTrail;
  return {
    endpoint: cloud.aws.endpoint,
    region: cloud.aws.region,
    managementAccountId: cloud.aws.managementAccountId,
    roleArn: cloud.aws.connectorRoleArn,
    externalId: cloud.aws.externalId,
    baseCredentials: { accessKeyId: cloud.aws.accessKeyId, secretAccessKey: cloud.aws.secretAccessKey },
    consoleLinks: false,
    trail: {
      bucket: trail.bucket,
      keyPrefix: trail.keyPrefix.replace(/\/+$/, ""),
      bucketRegion: trail.bucketRegion,
      readerRoleArn: trail.readerRoleArn,
      readerExternalId: trail.readerExternalId,
      backfillDays: DEFAULT_TRAIL_BACKFILL_DAYS,
    },
  };
}

export function sandboxAzureConnection(cloud: SandboxCloud): AzureConnection {
  return {
    tenantId: cloud.azure.tenantId,
    clientId: cloud.azure.clientId,
    credential: { kind: "secret", clientSecret: cloud.azure.clientSecret },
    armEndpoint: cloud.azure.armEndpoint,
    authorityHost: cloud.azure.authorityHost,
    caCertPem: cloud.azure.caCertPem,
    rootManagementGroupId: cloud.azure.rootManagementGroupId,
    consoleLinks: false,
    policyPropagationSeconds: cloud.azure.policyPropagationSeconds,
    activityLogLagSeconds: cloud.azure.activityLogLagSeconds,
  };
}

import { randomBytes, X509Certificate } from "node:crypto";
import { Code, ConnectError } from "@connectrpc/connect";
import { CloudProvider as CloudProviderEnum } from "@palisade/api/gen/palisade/common/v1/common_pb";
import {
  AwsPolicyType as AwsPolicyTypeEnum,
  AzureCredentialType,
  type ConnectorConfig,
} from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import { DEFAULT_TRAIL_BACKFILL_DAYS } from "../../cloud/aws/trail-s3";
import type { ProviderName } from "../../cloud/cloud-provider";
import { invalidArgument } from "../../rpc/errors";
import type { ConnectorKind, OrganizationTrailSettings, StoredConfig } from "./connector-repository";
import { SandboxNotRunningError, type StoredSecret } from "./connector-runtime";
import { readPolicyLimits, type StoredPolicyLimits } from "./policy-quotas";

// Lengths (name, secret, certificate) are bounds of the contract, checked before a handler runs.
const ACCOUNT_ID = /^\d{12}$/;
const ROLE_ARN = /^arn:aws(?:-[a-z]+)*:iam::(\d{12}):role\/[\w+=,.@/-]{1,512}$/;
const REGION = /^[a-z]{2}(?:-[a-z]+)+-\d{1,2}$/;
// https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucketnamingrules.html
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
// https://docs.aws.amazon.com/AmazonS3/latest/userguide/object-keys.html (safe characters)
const KEY_PREFIX = /^[\w!.*'()/-]*$/;
const EXTERNAL_ID = /^[\w+=,.@:/-]{2,1224}$/;
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DEFAULT_REGION = "us-east-1";
const MAX_BACKFILL_DAYS = 90;

/** A connector's settings checked for storing: what goes in `config`, and what is sealed. */
export interface CheckedConfig {
  kind: ConnectorKind;
  config: StoredConfig;
  secret: StoredSecret;
}

/** The message names the field itself, so it is also the field's problem. */
function invalid(field: string, message: string): never {
  throw invalidArgument(message, [{ field, message }]);
}

export function providerName(value: CloudProviderEnum | undefined, field: string): ProviderName {
  if (value === CloudProviderEnum.AWS) return "aws";
  if (value === CloudProviderEnum.AZURE) return "azure";
  return invalid(field, `${field} must be AWS or AZURE.`);
}

export function readName(raw: string): string {
  const name = raw.trim();
  if (name.length < 1) invalid("name", "name must not be empty.");
  return name;
}

function certificateThumbprint(pem: string): string {
  const field = "config.azure.client_certificate_pem";
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem)) {
    invalid(field, `${field} must contain the private key as well as the certificate (PEM).`);
  }
  try {
    return new X509Certificate(pem).fingerprint.replaceAll(":", "");
  } catch {
    return invalid(field, `${field} does not hold a readable X.509 certificate (PEM).`);
  }
}

type AwsInput = Extract<ConnectorConfig["kind"], { case: "aws" }>["value"];
type AzureInput = Extract<ConnectorConfig["kind"], { case: "azure" }>["value"];
type Previous = { config: StoredConfig; secret: StoredSecret } | undefined;
type TrailInput = NonNullable<AwsInput["trail"]>;

/** The organisation trail's settings; the reader role may be in any account (the log archive). */
function readTrail(value: TrailInput, region: string): OrganizationTrailSettings {
  const field = (name: string) => `config.aws.trail.${name}`;
  const bucket = value.bucket.trim();
  if (!BUCKET.test(bucket) || bucket.includes(".."))
    invalid(field("bucket"), `${field("bucket")} "${bucket}" is not an S3 bucket name.`);
  const keyPrefix = value.keyPrefix.trim().replace(/^\/+|\/+$/g, "");
  if (!KEY_PREFIX.test(keyPrefix))
    invalid(
      field("key_prefix"),
      `${field("key_prefix")} may hold only letters, digits and the characters S3 calls safe (/!-_.*'()).`,
    );
  const bucketRegion = value.bucketRegion.trim() || region;
  if (!REGION.test(bucketRegion))
    invalid(
      field("bucket_region"),
      `${field("bucket_region")} "${bucketRegion}" is not an AWS region such as eu-west-1.`,
    );
  const readerRoleArn = value.readerRoleArn.trim();
  if (!ROLE_ARN.test(readerRoleArn))
    invalid(
      field("reader_role_arn"),
      `${field("reader_role_arn")} must be an IAM role ARN such as "arn:aws:iam::444455556666:role/palisade-trail-reader".`,
    );
  const readerExternalId = value.readerExternalId.trim();
  if (readerExternalId && !EXTERNAL_ID.test(readerExternalId))
    invalid(
      field("reader_external_id"),
      `${field("reader_external_id")} must be 2 to 1224 letters, digits or +=,.@:/- characters.`,
    );
  const backfillDays = value.backfillDays || DEFAULT_TRAIL_BACKFILL_DAYS;
  if (backfillDays > MAX_BACKFILL_DAYS)
    invalid(field("backfill_days"), `${field("backfill_days")} must be 1 to ${MAX_BACKFILL_DAYS}.`);
  return { bucket, keyPrefix, bucketRegion, readerRoleArn, readerExternalId, backfillDays };
}

/**
 * The organisation's quotas per policy type; 0 leaves AWS's default. The older SCP fields stand for
 * the SCP entry when `policy_limits` has none.
 */
function readAwsPolicyLimits(value: AwsInput): StoredPolicyLimits {
  const entries = value.policyLimits.map((entry) => ({
    type: AwsPolicyTypeEnum[entry.type] ?? String(entry.type),
    characters: entry.maxCharacters,
    perTarget: entry.maxPerTarget,
  }));
  const hasScp = entries.some((entry) => entry.type === "SERVICE_CONTROL_POLICY");
  const limits = readPolicyLimits(entries, "config.aws.policy_limits");
  if (hasScp || (value.scpMaxCharacters === 0 && value.scpMaxPerTarget === 0)) return limits;
  const legacy = readPolicyLimits(
    [
      {
        type: "SERVICE_CONTROL_POLICY",
        characters: value.scpMaxCharacters,
        perTarget: value.scpMaxPerTarget,
      },
    ],
    "config.aws.scp_max",
  );
  return { ...limits, ...legacy };
}

function readAws(value: AwsInput, previous: Previous): CheckedConfig {
  const managementAccountId = value.managementAccountId.trim();
  if (!ACCOUNT_ID.test(managementAccountId))
    invalid(
      "config.aws.management_account_id",
      "config.aws.management_account_id must be the 12-digit id of the organisation's management account.",
    );
  const roleArn = value.roleArn.trim();
  const match = ROLE_ARN.exec(roleArn);
  if (!match)
    invalid(
      "config.aws.role_arn",
      'config.aws.role_arn must be an IAM role ARN such as "arn:aws:iam::111122223333:role/PalisadeConnector".',
    );
  // The role is in the management account or in a member account that is delegated
  // administrator for Organizations; the connection test tells which, and what is missing.
  const region = value.region.trim() || DEFAULT_REGION;
  if (!REGION.test(region))
    invalid("config.aws.region", `config.aws.region "${region}" is not an AWS region such as us-east-1.`);
  const externalId =
    previous && "externalId" in previous.config
      ? previous.config.externalId
      : `palisade-${randomBytes(16).toString("hex")}`;
  const policyLimits = readAwsPolicyLimits(value);
  const trail = value.trail ? readTrail(value.trail, region) : undefined;
  return {
    kind: "aws",
    config: {
      provider: "aws",
      managementAccountId,
      roleArn,
      externalId,
      region,
      ...(Object.keys(policyLimits).length > 0 ? { policyLimits } : {}),
      ...(trail ? { trail } : {}),
    },
    secret: {},
  };
}

function readAzure(value: AzureInput, previous: Previous): CheckedConfig {
  const tenantId = value.tenantId.trim();
  const clientId = value.clientId.trim();
  if (!GUID.test(tenantId))
    invalid("config.azure.tenant_id", "config.azure.tenant_id must be the directory (tenant) id, a GUID.");
  if (!GUID.test(clientId))
    invalid("config.azure.client_id", "config.azure.client_id must be the application (client) id, a GUID.");
  const before = previous && "clientId" in previous.config ? previous : undefined;
  if (value.credentialType === AzureCredentialType.CERTIFICATE) {
    const field = "config.azure.client_certificate_pem";
    const pem = value.clientCertificatePem?.trim() || before?.secret.certificatePem;
    if (!pem) invalid(field, `${field} is required for certificate credentials.`);
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
    invalid(
      "config.azure.credential_type",
      "config.azure.credential_type must be CLIENT_SECRET or CERTIFICATE.",
    );
  const field = "config.azure.client_secret";
  const clientSecret = value.clientSecret || before?.secret.clientSecret;
  if (!clientSecret) invalid(field, `${field} is required for client secret credentials.`);
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

/** Reads and checks a configuration; `previous` supplies what an update may leave out. */
export function readConfig(
  input: ConnectorConfig | undefined,
  previous: Previous,
  sandboxRunning: boolean,
): CheckedConfig {
  const kind = input?.kind;
  switch (kind?.case) {
    case "aws":
      return readAws(kind.value, previous);
    case "azure":
      return readAzure(kind.value, previous);
    case "sandbox": {
      const provider = providerName(kind.value.provider, "config.sandbox.provider");
      if (!sandboxRunning) {
        throw new ConnectError(new SandboxNotRunningError().message, Code.FailedPrecondition);
      }
      return { kind: "sandbox", config: { provider }, secret: {} };
    }
    default:
      return invalid("config", "config must be one of aws, azure or sandbox.");
  }
}

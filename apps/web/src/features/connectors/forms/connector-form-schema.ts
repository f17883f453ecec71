import * as z from "zod/mini";
import { policyLimitShape } from "./policy-limits-form";

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const name = () =>
  z
    .string()
    .check(
      z.trim(),
      z.minLength(1, "Name is required"),
      z.maxLength(80, "Name must not exceed 80 characters"),
    );
const matching = (pattern: RegExp, message: string) => z.string().check(z.trim(), z.regex(pattern, message));

const ROLE_ARN = /^arn:aws(?:-[a-z]+)*:iam::\d{12}:role\/[\w+=,.@/-]{1,512}$/;

export const awsConnectorSchema = z
  .object({
    name: name(),
    // The organisation trail; all empty: events from LookupEvents, management account only.
    trailBucket: matching(
      /^([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])?$/,
      "Bucket name is 3 to 63 lower-case letters, digits, dots and hyphens",
    ),
    trailKeyPrefix: matching(/^[\w!.*'()/-]{0,512}$/, "Key prefix holds letters, digits and /!-_.*'()"),
    trailBucketRegion: matching(/^([a-z]{2}(-[a-z]+)+-\d{1,2})?$/, "Region looks like eu-west-1"),
    trailReaderRoleArn: z.string().check(z.trim()),
    trailReaderExternalId: matching(
      /^([\w+=,.@:/-]{2,1224})?$/,
      "External id is 2 to 1224 letters, digits or +=,.@:/-",
    ),
    trailBackfillDays: matching(/^([1-9]|[1-8]\d|90)?$/, "Backfill is 1 to 90 days"),
    managementAccountId: matching(/^\d{12}$/, "Management account id is 12 digits"),
    roleArn: matching(ROLE_ARN, "Role ARN looks like arn:aws:iam::111122223333:role/Name"),
    region: matching(/^([a-z]{2}(-[a-z]+)+-\d{1,2})?$/, "Region looks like us-east-1"),
    // Empty: AWS's default quota for the type.
    ...policyLimitShape,
  })
  .check(
    z.refine((v) => !v.trailBucket || ROLE_ARN.test(v.trailReaderRoleArn), {
      message: "Reader role ARN looks like arn:aws:iam::444455556666:role/Name",
      path: ["trailReaderRoleArn"],
    }),
  );

export type AwsConnectorValues = z.output<typeof awsConnectorSchema>;

/** The trail settings of the contract, or none when no bucket is named. */
export function trailOf(v: AwsConnectorValues) {
  if (!v.trailBucket) return undefined;
  return {
    bucket: v.trailBucket,
    keyPrefix: v.trailKeyPrefix,
    bucketRegion: v.trailBucketRegion,
    readerRoleArn: v.trailReaderRoleArn,
    readerExternalId: v.trailReaderExternalId,
    backfillDays: v.trailBackfillDays ? Number(v.trailBackfillDays) : 0,
  };
}

export const azureConnectorSchema = z
  .object({
    name: name(),
    tenantId: matching(GUID, "Tenant id is a GUID"),
    clientId: matching(GUID, "Application (client) id is a GUID"),
    credentialType: z.enum(["secret", "certificate"]),
    clientSecret: z.string().check(z.maxLength(1024, "Client secret must not exceed 1024 characters")),
    certificatePem: z.string().check(z.maxLength(16384, "Certificate must not exceed 16384 characters")),
  })
  .check(
    z.refine((v) => v.credentialType !== "secret" || v.clientSecret.length > 0, {
      message: "Client secret is required",
      path: ["clientSecret"],
    }),
    z.refine((v) => v.credentialType !== "certificate" || /PRIVATE KEY/.test(v.certificatePem), {
      message: "Paste the PEM with the private key and the certificate",
      path: ["certificatePem"],
    }),
  );

export type AzureConnectorValues = z.output<typeof azureConnectorSchema>;

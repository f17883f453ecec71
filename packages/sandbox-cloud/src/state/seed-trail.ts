import type { AwsState } from "./model";

/**
 * AWS's average, never zero by default: "CloudTrail typically delivers logs within an average of
 * about 5 minutes of an API call. This time is not guaranteed."
 * (https://docs.aws.amazon.com/awscloudtrail/latest/userguide/get-and-view-cloudtrail-log-files.html)
 */
export const DEFAULT_TRAIL_DELIVERY_DELAY_SECONDS = 300;

/** The log-archive account's bucket sits in another region than the connector's, as it often does. */
export const TRAIL_BUCKET_REGION = "eu-west-1";

export const TRAIL_READER_ROLE = "PalisadeTrailReader";

/**
 * The organisation trail, its bucket in the log-archive account and the role that reads it. Derived
 * from the organisation alone (no random draws), so a state saved before the trail existed gains
 * the same trail when it is opened again.
 */
export function ensureOrganizationTrail(aws: AwsState): void {
  // The seeded organisation's Security OU holds it, as a landing zone's does.
  const logArchive = aws.accounts.find((a) => a.name === "log-archive");
  if (!logArchive) throw new Error("The sandbox organisation has no log-archive account.");
  const readerRoleArn = `arn:aws:iam::${logArchive.id}:role/${TRAIL_READER_ROLE}`;
  if (!aws.principals.some((p) => p.arn === readerRoleArn)) {
    aws.principals.push({
      arn: readerRoleArn,
      accountId: logArchive.id,
      kind: "role",
      name: TRAIL_READER_ROLE,
      human: false,
      trustPolicy: JSON.stringify({
        Version: "2012-10-17",
        Statement: [
          {
            Effect: "Allow",
            Principal: { AWS: [aws.connector.userArn, aws.connector.roleArn] },
            Action: "sts:AssumeRole",
            Condition: { StringEquals: { "sts:ExternalId": aws.connector.externalId } },
          },
        ],
      }),
    });
  }
  const bucket = `org-trail-logs-${logArchive.id}`;
  aws.s3Buckets ??= [];
  if (!aws.s3Buckets.some((b) => b.name === bucket)) {
    aws.s3Buckets.push({
      name: bucket,
      accountId: logArchive.id,
      region: TRAIL_BUCKET_REGION,
      createdAt: logArchive.joinedAt,
      readers: [readerRoleArn],
      // The log-archive account's administrators may place objects (tests put files of their own).
      writers: [`arn:aws:iam::${logArchive.id}:role/Admin`],
    });
  }
  aws.organizationTrail ??= {
    name: "organization-trail",
    arn: `arn:aws:cloudtrail:us-east-1:${aws.managementAccountId}:trail/organization-trail`,
    bucket,
    keyPrefix: "",
    logArchiveAccountId: logArchive.id,
    readerRoleArn,
    deliveryDelaySeconds: DEFAULT_TRAIL_DELIVERY_DELAY_SECONDS,
  };
  aws.trailBatches ??= [];
}

/** The account a connector set up as delegated administrator lives in, as a landing zone's security tooling does. */
export const DELEGATED_ADMIN_ACCOUNT = "security-tooling";

/**
 * A connector role in a member account, trusted like the management account's, for a connector
 * set up in a delegated administrator account; it may call Organizations only as far as the
 * management account's delegation policy (PutResourcePolicy) allows.
 */
export function ensureDelegatedConnectorRole(aws: AwsState): string {
  const account = aws.accounts.find((a) => a.name === DELEGATED_ADMIN_ACCOUNT);
  if (!account) throw new Error(`The sandbox organisation has no ${DELEGATED_ADMIN_ACCOUNT} account.`);
  const arn = `arn:aws:iam::${account.id}:role/PalisadeConnector`;
  if (!aws.principals.some((p) => p.arn === arn))
    aws.principals.push({
      arn,
      accountId: account.id,
      kind: "role",
      name: "PalisadeConnector",
      human: false,
      trustPolicy: JSON.stringify({
        Version: "2012-10-17",
        Statement: [
          {
            Effect: "Allow",
            Principal: { AWS: aws.connector.userArn },
            Action: "sts:AssumeRole",
            Condition: { StringEquals: { "sts:ExternalId": aws.connector.externalId } },
          },
        ],
      }),
    });
  return arn;
}

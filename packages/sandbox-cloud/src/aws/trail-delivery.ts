import { randomBytes } from "node:crypto";
import { gzipSync } from "node:zlib";
import type { AwsState, CloudTrailRecord, OrganizationTrail } from "../state/model";
import type { StateStore } from "../state/store";
import type { S3Objects } from "./s3/s3-objects";

/**
 * Delivery of the organisation trail, as CloudTrail documents it:
 * - "CloudTrail typically delivers logs within an average of about 5 minutes of an API call. This
 *   time is not guaranteed." (https://docs.aws.amazon.com/awscloudtrail/latest/userguide/get-and-view-cloudtrail-log-files.html)
 * - a log file holds the records of one account and region; "a log file delivered at a specific
 *   time can contain records written at any point before that time"; its name is
 *   AccountID_CloudTrail_RegionName_YYYYMMDDTHHmmZ_UniqueString.json.gz, the time being the
 *   delivery's (https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-log-file-examples.html);
 * - an organisation trail's files lie under bucket/prefix/AWSLogs/O-ID/AccountID/CloudTrail/Region/YYYY/MM/DD/
 *   (https://docs.aws.amazon.com/awscloudtrail/latest/userguide/get-and-view-cloudtrail-log-files.html).
 *
 * Records of an account and region are gathered for half the configured delay; their file is
 * delivered between 0.5 and 1.5 times the delay after the gathering ends, so each record waits
 * about the delay on average, and files of different accounts, regions and windows arrive out of order.
 */
export function queueForDelivery(aws: AwsState, record: CloudTrailRecord, now: Date): void {
  const delayMs = aws.organizationTrail.deliveryDelaySeconds * 1000;
  const accountId = record.recipientAccountId;
  const open = aws.trailBatches.find(
    (b) =>
      b.accountId === accountId && b.region === record.awsRegion && Date.parse(b.closesAt) > now.getTime(),
  );
  if (open) {
    open.records.push(record);
    return;
  }
  const closesAt = now.getTime() + delayMs / 2;
  aws.trailBatches.push({
    accountId,
    region: record.awsRegion,
    closesAt: new Date(closesAt).toISOString(),
    dueAt: new Date(closesAt + delayMs * (0.5 + Math.random() / 2)).toISOString(),
    records: [record],
  });
}

const UNIQUE_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

export function logFileKey(
  trail: OrganizationTrail,
  organizationId: string,
  accountId: string,
  region: string,
  deliveredAt: Date,
): string {
  const iso = deliveredAt.toISOString();
  const [date = "", time = ""] = iso.split("T");
  const [yyyy, mm, dd] = date.split("-");
  const stamp = `${date.replace(/-/g, "")}T${time.slice(0, 5).replace(":", "")}Z`;
  const unique = [...randomBytes(16)].map((b) => UNIQUE_ALPHABET[b % UNIQUE_ALPHABET.length]).join("");
  const prefix = trail.keyPrefix ? `${trail.keyPrefix}/` : "";
  return `${prefix}AWSLogs/${organizationId}/${accountId}/CloudTrail/${region}/${yyyy}/${mm}/${dd}/${accountId}_CloudTrail_${region}_${stamp}_${unique}.json.gz`;
}

/** Writes every log file whose delivery time has come, at that time. Returns the keys written. */
export function deliverDueLogFiles(store: StateStore, objects: S3Objects): string[] {
  const aws = store.state.aws;
  const now = store.now().getTime();
  const due = aws.trailBatches.filter((b) => Date.parse(b.dueAt) <= now);
  if (due.length === 0) return [];
  const trail = aws.organizationTrail;
  const keys = due
    .sort((a, b) => Date.parse(a.dueAt) - Date.parse(b.dueAt))
    .map((batch) => {
      const at = new Date(batch.dueAt);
      const key = logFileKey(trail, aws.organizationId, batch.accountId, batch.region, at);
      const body = gzipSync(JSON.stringify({ Records: batch.records }));
      objects.put(trail.bucket, key, body, "application/json", at);
      return key;
    });
  aws.trailBatches = aws.trailBatches.filter((b) => !due.includes(b));
  store.changed();
  return keys;
}

import { randomUUID } from "node:crypto";
import type { CloudTrailRecord } from "../state/model";
import type { StateStore } from "../state/store";
import { userIdentity } from "./identity";
import { queueForDelivery } from "./trail-delivery";

export interface TrailInput {
  eventName: string;
  eventSource: string;
  region: string;
  /** The caller: an IAM user, an assumed-role session, a role (recorded as a session named after it), or a service principal. */
  principalArn: string;
  accessKeyId?: string;
  /** The API's own request shape; null when the API takes none or the sandbox does not model it. */
  requestParameters?: Record<string, unknown> | null;
  responseElements?: Record<string, unknown> | null;
  /** Only the APIs CloudTrail lists resources for; most records have none. */
  resources?: { ARN: string; accountId: string; type: string }[];
  readOnly?: boolean;
  errorCode?: string;
  errorMessage?: string;
  sourceIPAddress?: string;
  userAgent?: string;
  /** The account that received the call, when it is not the caller's (a cross-account AssumeRole). */
  recipientAccountId?: string;
}

const seconds = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, "Z");

/**
 * Records a management event in the caller's event history (LookupEvents) and queues it for the
 * organisation trail. Fields as https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-event-reference-record-contents.html
 * describes them; nothing beyond what CloudTrail writes.
 */
export function recordCloudTrail(store: StateStore, input: TrailInput): CloudTrailRecord {
  const now = store.now();
  const identity = userIdentity(
    store.state.aws,
    input.principalArn,
    input.accessKeyId,
    seconds(new Date(now.getTime() - 60_000)),
  );
  const record: CloudTrailRecord = {
    eventVersion: "1.11",
    userIdentity: identity,
    eventTime: seconds(now),
    eventSource: input.eventSource,
    eventName: input.eventName,
    awsRegion: input.region,
    sourceIPAddress: input.sourceIPAddress ?? "198.51.100.24",
    userAgent: input.userAgent ?? "aws-cli/2.27.0",
    ...(input.errorCode ? { errorCode: input.errorCode, errorMessage: input.errorMessage ?? "" } : {}),
    requestParameters: input.requestParameters ?? null,
    responseElements: input.responseElements ?? null,
    requestID: randomUUID(),
    eventID: randomUUID(),
    readOnly: input.readOnly ?? false,
    ...(input.resources && input.resources.length > 0 ? { resources: input.resources } : {}),
    eventType: "AwsApiCall",
    managementEvent: true,
    recipientAccountId: input.recipientAccountId ?? String(identity.accountId ?? ""),
    eventCategory: "Management",
  };
  store.state.aws.trail.push(record);
  queueForDelivery(store.state.aws, record, now);
  store.changed();
  return record;
}

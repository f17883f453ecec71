import { randomUUID } from "node:crypto";
import type { CloudTrailRecord } from "../state/model";
import type { StateStore } from "../state/store";

export interface TrailInput {
  eventName: string;
  eventSource: string;
  region: string;
  principalArn: string;
  accessKeyId?: string;
  requestParameters?: Record<string, unknown> | null;
  responseElements?: Record<string, unknown> | null;
  resources?: { ARN: string; accountId: string; type: string }[];
  readOnly?: boolean;
  errorCode?: string;
  errorMessage?: string;
  sourceIPAddress?: string;
  userAgent?: string;
}

export function userIdentity(principalArn: string, accessKeyId?: string): Record<string, unknown> {
  // A service principal's call (https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-event-reference-user-identity.html).
  if (principalArn.endsWith(".amazonaws.com")) return { type: "AWSService", invokedBy: principalArn };
  const [, , service, , accountId = "", resource = ""] = principalArn.split(":");
  const key = accessKeyId ? { accessKeyId } : {};
  if (service === "sts" && resource.startsWith("assumed-role/")) {
    const [, roleName = "", session = ""] = resource.split("/");
    return {
      type: "AssumedRole",
      principalId: `AROA${accountId.slice(0, 8)}:${session}`,
      arn: principalArn,
      accountId,
      ...key,
      sessionContext: {
        sessionIssuer: {
          type: "Role",
          arn: `arn:aws:iam::${accountId}:role/${roleName}`,
          accountId,
          userName: roleName,
        },
      },
    };
  }
  if (resource.startsWith("role/")) {
    return { type: "AssumedRole", arn: principalArn, accountId, ...key, userName: resource.slice(5) };
  }
  return {
    type: "IAMUser",
    principalId: `AIDA${accountId}`,
    arn: principalArn,
    accountId,
    ...key,
    userName: resource.split("/").pop(),
  };
}

export function recordCloudTrail(store: StateStore, input: TrailInput): CloudTrailRecord {
  const identity = userIdentity(input.principalArn, input.accessKeyId);
  const record: CloudTrailRecord = {
    eventVersion: "1.09",
    eventID: randomUUID(),
    eventTime: store
      .now()
      .toISOString()
      .replace(/\.\d{3}Z$/, "Z"),
    eventName: input.eventName,
    eventSource: input.eventSource,
    awsRegion: input.region,
    sourceIPAddress: input.sourceIPAddress ?? "198.51.100.24",
    userAgent: input.userAgent ?? "palisade-sandbox",
    userIdentity: identity,
    requestParameters: input.requestParameters ?? null,
    responseElements: input.responseElements ?? null,
    resources: input.resources ?? [],
    readOnly: input.readOnly ?? false,
    recipientAccountId: String(identity.accountId ?? ""),
    eventType: "AwsApiCall",
    managementEvent: true,
    ...(input.errorCode ? { errorCode: input.errorCode, errorMessage: input.errorMessage ?? "" } : {}),
  };
  store.state.aws.trail.push(record);
  store.changed();
  return record;
}

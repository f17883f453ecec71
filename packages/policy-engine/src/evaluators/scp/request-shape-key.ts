import {
  actionOf,
  type CloudTrailRecord,
  type FromCloudTrailOptions,
  principalArnOf,
  readsParameters,
} from "./request-from-cloudtrail";

const fieldKey = (field: unknown): string | undefined => {
  if (typeof field === "string") return `${field.length}:${field}`;
  if (field === undefined || field === null) return "-";
  // A field of another type than the record's schema gives is compared in the whole request.
  return undefined;
};

const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/**
 * A key two records share when `requestFromCloudTrail` gives them the same request but for the
 * keys that change from one call to the next (`aws:CurrentTime`, `aws:EpochTime`, `aws:userid`),
 * read from the record's fields without deriving the request: every field `globalContext`
 * reads, the first resource, and for an action whose parameters are mapped, every field a mapper
 * reads (the parameters, the answer's volume id and role ARN, S3's encryption applied, the
 * resources, the event's name, the user's name). A field added to a mapper is added here.
 * Undefined for a record with a field of an unexpected type: its request is compared whole.
 */
export function requestShapeKey(
  record: CloudTrailRecord,
  options: FromCloudTrailOptions = {},
): string | undefined {
  const action = options.action ?? actionOf(record);
  const identity = record.userIdentity ?? {};
  const session = identity.sessionContext;
  let key = "";
  // Each field prefixed with its length, so that no two lists of fields make the same key.
  for (const field of [
    action,
    options.principalArn ?? principalArnOf(identity),
    record.recipientAccountId,
    identity.accountId,
    record.awsRegion,
    identity.type,
    identity.invokedBy,
    session?.attributes?.mfaAuthenticated,
    session?.assumedRoot,
    session?.ec2RoleDelivery,
    record.resources?.[0]?.ARN,
  ]) {
    const part = fieldKey(field);
    if (part === undefined) return undefined;
    key += part;
  }
  if (!readsParameters(action)) return key;
  const answer = obj(record.responseElements);
  const mapped = JSON.stringify([
    record.requestParameters ?? null,
    answer.volumeId ?? null,
    obj(answer.role).arn ?? null,
    obj(record.additionalEventData).SSEApplied ?? null,
    record.resources ?? null,
    record.eventName ?? null,
    identity.userName ?? null,
  ]);
  return `${key}${mapped}`;
}

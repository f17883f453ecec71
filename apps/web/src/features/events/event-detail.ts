/** What the event sheet reads out of a provider's raw audit record. */

type Json = Record<string, unknown>;

const asObject = (value: unknown): Json | undefined =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : undefined;

function parsed(text: unknown): Json | undefined {
  if (typeof text !== "string") return undefined;
  try {
    return asObject(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/**
 * The message the cloud answered the caller with when it denied the request: CloudTrail's
 * `errorMessage` (inside `CloudTrailEvent` as the API returns it) or the Activity Log's
 * `properties.statusMessage` error. Empty when the request was not denied.
 */
export function denyMessageOf(raw: unknown): string {
  const record = asObject(raw);
  if (!record) return "";
  const trail = parsed(record.CloudTrailEvent) ?? record;
  if (typeof trail.errorMessage === "string" && trail.errorMessage) return trail.errorMessage;
  const status = parsed(asObject(record.properties)?.statusMessage);
  const message = asObject(status?.error)?.message;
  return typeof message === "string" ? message : "";
}

/**
 * The raw record for reading: CloudTrail's nested JSON string is unfolded so it reads as one
 * document.
 */
export function readableRaw(raw: unknown): string {
  const record = asObject(raw);
  const trail = parsed(record?.CloudTrailEvent);
  const value = record && trail ? { ...record, CloudTrailEvent: trail } : raw;
  return JSON.stringify(value ?? null, null, 2);
}

/** The AWS account (12 digits) or Azure subscription (`/subscriptions/<id>`) a scope is in. */
export function accountOf(scope: string): string {
  const sub = /^\/subscriptions\/[^/]+/i.exec(scope);
  if (sub) return sub[0];
  return scope;
}

/** Field names whose values are secrets: kept out of audit records, whatever the object. */
const SECRET_FIELD =
  /(secret|password|passwd|token|credential|private_?key|access_?key|webhook|signing_?key|api_?key_?value|otp|code_?hash|^key_?hash$|^plaintext)/i;

export const REDACTED = "[redacted]";

/** Largest before/after value kept in a record, as JSON; a larger one is replaced by its size. */
export const MAX_AUDIT_VALUE_BYTES = 32 * 1024;

/**
 * A before/after value as it is stored and hashed: plain JSON (dates as ISO text, no undefined),
 * every secret field replaced by "[redacted]" at any depth, bounded in size.
 */
export function auditValue(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  const plain = JSON.parse(
    JSON.stringify(redact(value), (_key, v) => (typeof v === "bigint" ? String(v) : v)),
  );
  const size = Buffer.byteLength(JSON.stringify(plain), "utf8");
  return size > MAX_AUDIT_VALUE_BYTES ? { truncated: true, bytes: size } : plain;
}

function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value instanceof Date || value === null || typeof value !== "object") return value;
  if (value instanceof Uint8Array) return REDACTED;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (v === undefined) continue;
    out[key] = SECRET_FIELD.test(key) && v !== null && v !== "" ? REDACTED : redact(v);
  }
  return out;
}

/** Text a caller sent (user agent, source), cut to a bound; absent when empty. */
export function boundedText(text: string | null | undefined, max: number): string | null {
  const trimmed = text?.trim();
  if (!trimmed) return null;
  return trimmed.length > max ? trimmed.slice(0, max) : trimmed;
}

import { createHash } from "node:crypto";

/**
 * One audit record as stored and as exported (one JSON object per line): every field but `hash`
 * is covered by the hash, together with the hash of the tenant's previous record, so an edited,
 * inserted or removed record breaks the chain at that record.
 */
export interface AuditChainRecord {
  id: string;
  tenantId: string;
  /** 1, 2, 3... within the tenant; pruning removes the oldest, so an export may start above 1. */
  sequence: number;
  /** ISO 8601 with milliseconds, in UTC. */
  occurredAt: string;
  actorType: string;
  actorId: string | null;
  actorName: string | null;
  /** Where a change made by code came from (the `x-palisade-source` header: path@commit). */
  actorSource: string | null;
  ipAddress: string | null;
  userAgent: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  targetName: string | null;
  before: unknown;
  after: unknown;
  /** Hash of the tenant's previous record; 64 zeros for the tenant's first record. */
  previousHash: string;
  hash: string;
}

export const GENESIS_HASH = "0".repeat(64);

/** JSON with object keys sorted at every level and no whitespace: the same value, the same text. */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** The text the hash covers: every field of the record but the hash itself. */
export function canonicalAuditRecord(record: Omit<AuditChainRecord, "hash">): string {
  return canonicalJson({
    id: record.id,
    tenantId: record.tenantId,
    sequence: record.sequence,
    occurredAt: record.occurredAt,
    actorType: record.actorType,
    actorId: record.actorId,
    actorName: record.actorName,
    actorSource: record.actorSource,
    ipAddress: record.ipAddress,
    userAgent: record.userAgent,
    action: record.action,
    targetType: record.targetType,
    targetId: record.targetId,
    targetName: record.targetName,
    before: record.before ?? null,
    after: record.after ?? null,
    previousHash: record.previousHash,
  });
}

export function auditRecordHash(record: Omit<AuditChainRecord, "hash">): string {
  return createHash("sha256").update(canonicalAuditRecord(record)).digest("hex");
}

export type AuditChainVerdict =
  | { ok: true; records: number }
  | { ok: false; index: number; id: string; reason: string };

/**
 * Checks one tenant's records, oldest first, as an export gives them. The first record's stored
 * previous hash is taken as given (older records may have been pruned by the retention); from
 * there each record must hash to its stored hash and name the previous record's hash, with
 * consecutive sequence numbers. Returns the first record that breaks the chain and why.
 */
export function verifyAuditChain(records: readonly AuditChainRecord[]): AuditChainVerdict {
  for (let index = 0; index < records.length; index++) {
    const record = records[index] as AuditChainRecord;
    const fail = (reason: string): AuditChainVerdict => ({ ok: false, index, id: String(record.id), reason });
    const previous = records[index - 1];
    if (previous) {
      if (record.tenantId !== previous.tenantId)
        return fail("belongs to another tenant than the records before it");
      if (record.sequence !== previous.sequence + 1) {
        return fail(
          `sequence ${record.sequence} follows ${previous.sequence}: a record is missing or out of order`,
        );
      }
      if (record.previousHash !== previous.hash) {
        return fail(
          "its previous hash is not the hash of the record before it (a record was removed or replaced)",
        );
      }
    }
    const { hash, ...fields } = record;
    if (auditRecordHash(fields) !== hash)
      return fail("its content does not match its hash (the record was edited)");
  }
  return { ok: true, records: records.length };
}

/** Parses a JSON-lines export (blank lines ignored) into records for `verifyAuditChain`. */
export function parseAuditExport(text: string): AuditChainRecord[] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as AuditChainRecord);
}

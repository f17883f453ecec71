import { create, fromJson, type JsonValue } from "@bufbuild/protobuf";
import { timestampFromDate, ValueSchema } from "@bufbuild/protobuf/wkt";
import { ActorType, type AuditRecord, AuditRecordSchema } from "@palisade/api/gen/palisade/audit/v1/audit_pb";
import type { AuditRow } from "./audit-repository";

const ACTOR_TYPES: Record<string, ActorType> = {
  user: ActorType.USER,
  api_key: ActorType.API_KEY,
  chat: ActorType.CHAT,
  system: ActorType.SYSTEM,
  anonymous: ActorType.ANONYMOUS,
};

function jsonValue(value: unknown) {
  return value === null || value === undefined ? undefined : fromJson(ValueSchema, value as JsonValue);
}

export function auditRecordMessage(row: AuditRow): AuditRecord {
  return create(AuditRecordSchema, {
    id: row.id,
    sequence: BigInt(row.sequence),
    occurredAt: timestampFromDate(row.createdAt),
    actor: {
      type: ACTOR_TYPES[row.actorType] ?? ActorType.UNSPECIFIED,
      id: row.actorId ?? "",
      name: row.actorName ?? "",
      source: row.actorSource ?? "",
    },
    ipAddress: row.ipAddress ?? "",
    userAgent: row.userAgent ?? "",
    action: row.action,
    target: { type: row.targetType ?? "", id: row.targetId ?? "", name: row.targetName ?? "" },
    before: jsonValue(row.before),
    after: jsonValue(row.after),
    previousHash: row.previousHash,
    hash: row.hash,
  });
}

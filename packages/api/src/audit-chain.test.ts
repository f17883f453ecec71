import { describe, expect, it } from "vitest";
import {
  type AuditChainRecord,
  auditRecordHash,
  canonicalJson,
  GENESIS_HASH,
  parseAuditExport,
  verifyAuditChain,
} from "./audit-chain";

function chain(count: number, start = 1, previousHash = GENESIS_HASH): AuditChainRecord[] {
  const records: AuditChainRecord[] = [];
  for (let i = 0; i < count; i++) {
    const fields = {
      id: `r${start + i}`,
      tenantId: "t1",
      sequence: start + i,
      occurredAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
      actorType: "user",
      actorId: "u1",
      actorName: "Ada",
      actorSource: null,
      ipAddress: "203.0.113.9",
      userAgent: "test",
      action: "palisade.team.v1.TeamService/ChangeRole",
      targetType: "member",
      targetId: "m1",
      targetName: "bob@example.com",
      before: { role: "VIEWER" },
      after: { role: "EDITOR", n: i },
      previousHash: records.at(-1)?.hash ?? previousHash,
    };
    records.push({ ...fields, hash: auditRecordHash(fields) });
  }
  return records;
}

describe("audit chain", () => {
  it("serialises objects the same whatever their key order", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { f: 2, e: 3 }], c: null } })).toBe(
      canonicalJson({ a: { c: null, d: [1, { e: 3, f: 2 }] }, b: 1 }),
    );
  });

  it("accepts an intact chain, and one whose oldest records were pruned", () => {
    const records = chain(5);
    expect(verifyAuditChain(records)).toEqual({ ok: true, records: 5 });
    expect(verifyAuditChain(records.slice(2))).toEqual({ ok: true, records: 3 });
  });

  it("names the edited record", () => {
    const records = chain(5);
    records[2] = { ...(records[2] as AuditChainRecord), after: { role: "ADMINISTRATOR" } };
    expect(verifyAuditChain(records)).toMatchObject({ ok: false, index: 2, id: "r3" });
  });

  it("names the record after a removed one", () => {
    const records = chain(5);
    records.splice(3, 1);
    const verdict = verifyAuditChain(records);
    expect(verdict).toMatchObject({ ok: false, index: 3, id: "r5" });
  });

  it("reads a JSON-lines export", () => {
    const records = chain(3);
    const text = `${records.map((r) => JSON.stringify(r)).join("\n")}\n`;
    expect(verifyAuditChain(parseAuditExport(text))).toEqual({ ok: true, records: 3 });
  });
});

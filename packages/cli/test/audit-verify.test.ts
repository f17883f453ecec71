import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AuditChainRecord, auditRecordHash, GENESIS_HASH } from "@palisade/api/audit-chain";
import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli";

/** A tenant's audit records as the JSON Lines export writes them, each chained to the one before. */
function chain(count: number, firstSequence = 1, previousHash = GENESIS_HASH): AuditChainRecord[] {
  const records: AuditChainRecord[] = [];
  for (let i = 0; i < count; i++) {
    const fields = {
      id: String(1000 + i),
      tenantId: "7d7a0f44-4ad0-4b7b-9d7c-3d1c1f1f0a01",
      sequence: firstSequence + i,
      occurredAt: new Date(Date.UTC(2026, 10, 28, 9, i)).toISOString(),
      actorType: "USER",
      actorId: "u-1",
      actorName: "Ada Admin",
      actorSource: null,
      ipAddress: "127.0.0.1",
      userAgent: "Mozilla/5.0",
      action: "palisade.deployment.v1.DeploymentManagerService/UpdateBundle",
      targetType: "bundle",
      targetId: `b-${i}`,
      targetName: `Bundle ${i}`,
      before: { mode: "ALERT" },
      after: { mode: "PREVENT" },
      previousHash: records.at(-1)?.hash ?? previousHash,
    };
    records.push({ ...fields, hash: auditRecordHash(fields) });
  }
  return records;
}

function exportFile(records: AuditChainRecord[]): string {
  const file = join(mkdtempSync(join(tmpdir(), "palisade-audit-")), "audit.jsonl");
  writeFileSync(file, `${records.map((r) => JSON.stringify(r)).join("\n")}\n`);
  return file;
}

describe("palisade audit verify", () => {
  it("accepts an unbroken export, also one that starts after records the retention removed", async () => {
    const whole = await runCli(["audit", "verify", exportFile(chain(5))]);
    expect(whole.code, whole.err).toBe(0);
    expect(whole.out).toContain("5 record(s) verified, sequence 1 to 5");
    const pruned = chain(6).slice(2);
    const tail = await runCli(["audit", "verify", exportFile(pruned)]);
    expect(tail.code, tail.err).toBe(0);
    expect(tail.out).toContain("sequence 3 to 6");
  });

  it("names the edited record", async () => {
    const records = chain(5);
    records[2] = { ...(records[2] as AuditChainRecord), after: { mode: "ALERT" } };
    const result = await runCli(["audit", "verify", exportFile(records)]);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/audit\.jsonl:3: record 1002 \(sequence 3, .*\) breaks the chain: .*edited/);
  });

  it("names the record after a removed one", async () => {
    const records = chain(5);
    records.splice(1, 1);
    const result = await runCli(["audit", "verify", exportFile(records)]);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/audit\.jsonl:2: record 1002 .*a record is missing/);
  });

  it("says what is wrong with a file that is not an export, and answers usage errors with exit code 2", async () => {
    const notJson = join(mkdtempSync(join(tmpdir(), "palisade-audit-")), "audit.csv");
    writeFileSync(notJson, "id,action\n1,x\n");
    const bad = await runCli(["audit", "verify", notJson]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain("not a JSON Lines export of the audit log");
    const missing = await runCli(["audit", "verify", join(tmpdir(), "no-such-export.jsonl")]);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("no such file");
    const noFile = await runCli(["audit", "verify"]);
    expect(noFile.code).toBe(2);
    expect(noFile.err).toContain("Usage: palisade audit verify <file.jsonl>");
  });
});

import { readFileSync } from "node:fs";
import { type AuditChainRecord, parseAuditExport, verifyAuditChain } from "@palisade/api/audit-chain";
import { type Command, CommandFailed } from "../usage";

function readExport(file: string): AuditChainRecord[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : String(error);
    throw new CommandFailed(`${file}: cannot be read (${reason}).`);
  }
  try {
    return parseAuditExport(text);
  } catch {
    throw new CommandFailed(
      `${file}: not a JSON Lines export of the audit log. Export it from Settings → Audit log as JSON Lines.`,
    );
  }
}

const verifyCommand: Command = {
  name: "verify",
  summary: "Check that an audit log export is an unbroken chain: no record edited, removed or inserted.",
  args: "<file.jsonl>",
  positionals: { min: 1, max: 1 },
  help: [
    "The file is a JSON Lines export of the audit log (Settings → Audit log → Export, JSON Lines).",
    "Exit code 0 when the chain holds, 1 when a record breaks it (the record is named).",
  ].join("\n"),
  async run({ positionals, io }) {
    const file = positionals[0] as string;
    const records = readExport(file);
    if (records.length === 0) throw new CommandFailed(`${file}: holds no audit record.`);
    const verdict = verifyAuditChain(records);
    if (!verdict.ok) {
      const record = records[verdict.index] as AuditChainRecord;
      io.err(
        `${file}:${verdict.index + 1}: record ${verdict.id} (sequence ${record.sequence}, ${record.occurredAt}, ${record.action}) breaks the chain: ${verdict.reason}.`,
      );
      return 1;
    }
    const first = records[0] as AuditChainRecord;
    const last = records[records.length - 1] as AuditChainRecord;
    io.out(
      `${file}: ${verdict.records} record(s) verified, sequence ${first.sequence} to ${last.sequence} (${first.occurredAt} to ${last.occurredAt}).`,
    );
    return 0;
  },
};

export const auditCommand: Command = {
  name: "audit",
  summary: "Work with exports of the audit log.",
  subcommands: [verifyCommand],
};

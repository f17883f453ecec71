import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { simpleParser } from "mailparser";

/** The token of an invitation link in a message's text. */
export function invitationTokenIn(text: string): string {
  const token = text.match(/\/invite\/([A-Za-z0-9_-]+)/)?.[1];
  if (!token) throw new Error("no invitation link in the message");
  return token;
}

/**
 * The token of the newest invitation link written to DATA_DIR/outbox for this address (the
 * server's mail without SMTP_URL), waiting for the message to be written.
 */
export async function outboxInvitationToken(
  dataDir: string,
  to: string,
  timeoutMs = 15_000,
): Promise<string> {
  const outbox = join(dataDir, "outbox");
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const names = (await readdir(outbox).catch(() => [] as string[])).filter((n) => n.endsWith(".eml"));
    const written = await Promise.all(
      names.map(async (name) => ({ name, at: (await stat(join(outbox, name))).mtimeMs })),
    );
    for (const { name } of written.sort((a, b) => b.at - a.at)) {
      const parsed = await simpleParser(await readFile(join(outbox, name)));
      const recipients = [parsed.to].flat().flatMap((a) => a?.value.map((v) => v.address) ?? []);
      if (recipients.includes(to)) return invitationTokenIn(parsed.text ?? "");
    }
    if (Date.now() > deadline) throw new Error(`no invitation to ${to} in ${outbox}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

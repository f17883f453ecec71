import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createTransport } from "nodemailer";
import type { MailMessage } from "./mail-templates";

/**
 * Writes messages as .eml files instead of sending them, so a local run works without a
 * mail server: the file opens in any mail client and holds exactly what SMTP would carry.
 */
export function createOutbox(dir: string, from: string) {
  const composer = createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    /** The file's path. The same key overwrites the same file, so a retried job leaves one file. */
    async write(message: MailMessage, key: string, messageId: string): Promise<string> {
      const info = await composer.sendMail({ from, messageId, ...message });
      if (!Buffer.isBuffer(info.message)) throw new Error("the message was not composed into a buffer");
      await mkdir(dir, { recursive: true });
      const file = join(dir, `${safeFileName(key)}.eml`);
      // A reader never sees half a message: the file appears complete or not at all.
      const partial = `${file}.partial`;
      await writeFile(partial, info.message, { mode: 0o600 });
      await rename(partial, file);
      return file;
    },
    close() {
      composer.close();
    },
  };
}

function safeFileName(key: string): string {
  return key.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 120);
}

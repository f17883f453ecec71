import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { expect } from "@playwright/test";

/** The server runs without SMTP_URL: each message is an .eml file in DATA_DIR/outbox. */
function outboxDir(): string {
  const dataDir = process.env.PALISADE_E2E_DATA_DIR;
  if (!dataDir) throw new Error("PALISADE_E2E_DATA_DIR is not set (see playwright.config.ts)");
  return join(dataDir, "outbox");
}

function invitationPathIn(to: string): string | undefined {
  const dir = outboxDir();
  const files = (() => {
    try {
      return readdirSync(dir).filter((name) => name.endsWith(".eml"));
    } catch {
      return [];
    }
  })();
  const newestFirst = files
    .map((name) => ({ name, at: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const { name } of newestFirst) {
    // Quoted-printable soft line breaks may cut the link; the token itself is URL-safe base64.
    const text = readFileSync(join(dir, name), "utf8").replace(/=\r?\n/g, "");
    if (!new RegExp(`^To: .*${to.replace(/[.+]/g, "\\$&")}`, "mi").test(text)) continue;
    const token = text.match(/\/invite\/([A-Za-z0-9_-]{20,})/)?.[1];
    if (token) return `/invite/${token}`;
  }
  return undefined;
}

/** The path of the invitation link last written to the outbox for this address. */
export async function invitationPathFor(to: string): Promise<string> {
  let path: string | undefined;
  await expect.poll(() => (path = invitationPathIn(to)), { timeout: 15_000 }).toBeTruthy();
  return path as string;
}

function signInCodeIn(to: string, newerThan: number): string | undefined {
  const dir = outboxDir();
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((name) => name.endsWith(".eml"));
  } catch {
    return undefined;
  }
  const newestFirst = files
    .map((name) => ({ name, at: statSync(join(dir, name)).mtimeMs }))
    .filter(({ at }) => at >= newerThan)
    .sort((a, b) => b.at - a.at);
  for (const { name } of newestFirst) {
    const text = readFileSync(join(dir, name), "utf8").replace(/=\r?\n/g, "");
    if (!new RegExp(`^To: .*${to.replace(/[.+]/g, "\\$&")}`, "mi").test(text)) continue;
    if (!/^Subject: Your Palisade sign-in code/im.test(text)) continue;
    const code = text.match(/^(\d{6})\r?$/m)?.[1];
    if (code) return code;
  }
  return undefined;
}

/** The sign-in code e-mailed to this address at or after `since` (a Date.now() value). */
export async function signInCodeFor(to: string, since: number): Promise<string> {
  let code: string | undefined;
  await expect.poll(() => (code = signInCodeIn(to, since - 1000)), { timeout: 15_000 }).toBeTruthy();
  return code as string;
}

/** The text of the newest message to this address with this subject, written at or after `since`. */
function messageText(to: string, subject: RegExp, since: number): string | undefined {
  const dir = outboxDir();
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((name) => name.endsWith(".eml"));
  } catch {
    return undefined;
  }
  const newestFirst = files
    .map((name) => ({ name, at: statSync(join(dir, name)).mtimeMs }))
    .filter(({ at }) => at >= since - 1000)
    .sort((a, b) => b.at - a.at);
  for (const { name } of newestFirst) {
    // Quoted-printable: soft line breaks and "=3D" for "=" in links.
    const text = readFileSync(join(dir, name), "utf8")
      .replace(/=\r?\n/g, "")
      .replace(/=3D/g, "=");
    if (!new RegExp(`^To: .*${to.replace(/[.+]/g, "\\$&")}`, "mi").test(text)) continue;
    if (subject.test(text)) return text;
  }
  return undefined;
}

/** The path of the password reset link e-mailed to this address at or after `since`. */
export async function resetPasswordPathFor(to: string, since: number): Promise<string> {
  let path: string | undefined;
  await expect
    .poll(
      () =>
        (path = messageText(to, /^Subject: Reset your Palisade password/im, since)?.match(
          /\/reset-password\?token=[A-Za-z0-9_-]+/,
        )?.[0]),
      { timeout: 15_000 },
    )
    .toBeTruthy();
  return path as string;
}

/** The path of the address confirmation link e-mailed to this address at or after `since`. */
export async function verificationPathFor(to: string, since: number): Promise<string> {
  let path: string | undefined;
  await expect
    .poll(
      () =>
        (path = messageText(to, /^Subject: Confirm your e-mail address/im, since)?.match(
          /\/api\/auth\/verify-email\?token=[A-Za-z0-9_.-]+&callbackURL=[A-Za-z0-9%._-]*/,
        )?.[0]),
      { timeout: 15_000 },
    )
    .toBeTruthy();
  return path as string;
}

/** The path of the sign-in link e-mailed to this address at or after `since`. */
export async function signInLinkPathFor(to: string, since: number): Promise<string> {
  let path: string | undefined;
  await expect
    .poll(
      () =>
        (path = messageText(to, /^Subject: Your Palisade sign-in link/im, since)?.match(
          /\/sign-in-link\?token=[A-Za-z0-9_-]+/,
        )?.[0]),
      { timeout: 15_000 },
    )
    .toBeTruthy();
  return path as string;
}

/** The enchanted links e-mailed to this address at or after `since`: each number's link path. */
export async function enchantedLinkPathsFor(to: string, since: number): Promise<Map<number, string>> {
  let paths = new Map<number, string>();
  await expect
    .poll(
      () => {
        const text = messageText(to, /^Subject: Confirm your Palisade sign-in/im, since) ?? "";
        paths = new Map(
          [...text.matchAll(/Number (\d{2}):\s*\S*?(\/enchanted-link\?token=[A-Za-z0-9_-]+)/g)].map(
            ([, number, path]) => [Number(number), path ?? ""] as const,
          ),
        );
        return paths.size;
      },
      { timeout: 15_000 },
    )
    .toBe(3);
  return paths;
}

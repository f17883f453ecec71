import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The server's secret key (signs sessions, encrypts connector secrets). Taken from
 * PALISADE_SECRET_KEY; otherwise generated once and kept in the data directory so that
 * sessions survive a restart of a local install.
 */
export function loadSecretKey(dataDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.PALISADE_SECRET_KEY;
  if (fromEnv) {
    if (fromEnv.length < 32) throw new Error("PALISADE_SECRET_KEY must be at least 32 characters long");
    return fromEnv;
  }
  const file = join(dataDir, "secret.key");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32).toString("base64url");
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return key;
}

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { HierarchyNode } from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import { createPalisade } from "../../apps/server/src/app";
import { readConfig } from "../../apps/server/src/config";
import { createLogger } from "../../apps/server/src/logger";

export const BENCH_ADMIN = { email: "bench@palisade.test", password: "bench password long enough" };

/**
 * Palisade with the sandbox cloud in-process (activity off), its embedded database in a fresh
 * folder, or DATABASE_URL when set. The caller listens, measures and removes `dataDir`.
 */
export async function startSandboxedPalisade(name: string) {
  const dataDir = mkdtempSync(join(tmpdir(), `palisade-${name}-bench-`));
  const config = readConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    PALISADE_ADMIN_EMAIL: BENCH_ADMIN.email,
    PALISADE_ADMIN_PASSWORD: BENCH_ADMIN.password,
    WEB_DIST: "/nonexistent",
    LOG_LEVEL: "error",
    PALISADE_SANDBOX: "true",
    SANDBOX_PORT: "0",
    SANDBOX_ACTIVITY: "false",
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  });
  const palisade = await createPalisade(config, createLogger(config.logLevel));
  return { palisade, dataDir };
}

/** Polls `read` every 10 ms until `done` holds, for at most `timeoutMs`. */
export async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export const flatten = (nodes: HierarchyNode[]): HierarchyNode[] =>
  nodes.flatMap((n) => [n, ...flatten(n.children)]);

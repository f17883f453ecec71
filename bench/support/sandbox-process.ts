import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = new URL("../..", import.meta.url).pathname;

/**
 * The sandbox cloud as its own process on a free loopback port, as a provider is reached over the
 * network: its work runs beside the server's, not in the server's event loop. `args` are the
 * sandbox's `serve` options. `stop()` ends it and removes its state.
 */
export async function startSandboxProcess(
  args: string[] = [],
): Promise<{ url: string; stop(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), "palisade-bench-sandbox-"));
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "packages/sandbox-cloud/src/cli.ts",
      "serve",
      "--port",
      "0",
      "--data-dir",
      dataDir,
      "--no-activity",
      ...args,
    ],
    { cwd: root, stdio: ["ignore", "pipe", "inherit"] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /listening on (http:\/\/\S+)/.exec(output);
      if (listening?.[1]) resolve(listening[1]);
    });
    child.on("exit", (code) =>
      reject(new Error(`the sandbox exited (${code}) before it listened:\n${output}`)),
    );
  });
  return {
    url,
    async stop() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

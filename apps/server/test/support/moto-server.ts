import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";

/** moto (https://docs.getmoto.org/en/latest/docs/server_mode.html): AWS emulated by people outside Palisade. */
export interface MotoServer {
  url: string;
  stop(): Promise<void>;
}

/** Whether `moto_server` can be run here; CI must have it, so outside CI alone a test may skip. */
export function motoAvailable(): boolean {
  const found = spawnSync("moto_server", ["--help"], { stdio: "ignore", timeout: 30_000 }).status === 0;
  if (!found && process.env.CI) throw new Error("moto_server is not on PATH; CI must install moto[server].");
  if (!found)
    console.warn("moto_server is not on PATH: the tests against moto's S3 are skipped (they run in CI).");
  return found;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Starts `moto_server` on a free port and waits until it answers. */
export async function startMotoServer(env: Record<string, string> = {}): Promise<MotoServer> {
  const port = await freePort();
  const child: ChildProcess = spawn("moto_server", ["-H", "127.0.0.1", "-p", String(port)], {
    stdio: "ignore",
    env: { ...process.env, ...env },
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`moto_server exited with ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/moto-api/`);
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill();
      throw new Error("moto_server did not start within 30 s");
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill();
      }),
  };
}

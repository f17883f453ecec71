import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { PolicyService } from "@palisade/api/gen/palisade/policy/v1/policy_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "./support/poll";
import { createTestDatabase, engines, type TestDatabase } from "./support/test-database";

// The production build (npm run build:server), run as the image runs it: plain node, from a
// folder outside the repository, so nothing can be found through the workspace's node_modules.
const ROOT = new URL("../../../", import.meta.url).pathname;
const ADMIN = { email: "admin@palisade.test", password: "correct horse battery staple" };

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

interface Proc {
  child: ChildProcess;
  output: string[];
}

function startNode(cwd: string, args: string[], env: Record<string, string>): Proc {
  const child = spawn(process.execPath, args, {
    cwd,
    // CI: JSON log lines, as in a container.
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", CI: "true", ...env },
    stdio: "pipe",
  });
  const output: string[] = [];
  child.stdout?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  return { child, output };
}

async function stop(proc: Proc | undefined): Promise<void> {
  if (!proc || proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  const exited = new Promise((resolve) => proc.child.once("exit", resolve));
  proc.child.kill("SIGTERM");
  await exited;
}

/** Waits until `probe` holds, failing early with the process's output when it exits. */
async function until(what: string, proc: Proc, probe: () => Promise<boolean>): Promise<void> {
  await waitFor(
    what,
    async () => {
      if (proc.child.exitCode !== null) throw new Error(`exited with ${proc.child.exitCode}`);
      return probe().catch(() => false);
    },
    // Generous: the suite runs beside other servers on a small machine.
    120_000,
  ).catch((error: Error) => {
    throw new Error(`${error.message}\nThe process said:\n${proc.output.join("").slice(-4000)}`);
  });
}

const syncedHierarchies = (proc: Proc) =>
  proc.output
    .join("")
    .split("\n")
    .filter((line) => line.includes('"msg":"hierarchy synced"')).length;

describe("the production build", { timeout: 240_000 }, () => {
  let out = "";

  beforeAll(() => {
    // The suite builds the web app first (scripts/test.sh); alone, this test builds it too.
    if (!existsSync(join(ROOT, "apps/web/dist/index.html"))) {
      execFileSync("npm", ["run", "-s", "build"], { cwd: ROOT, stdio: "pipe" });
    }
    out = mkdtempSync(join(tmpdir(), "palisade-build-"));
    execFileSync(process.execPath, ["scripts/build-server.mjs", "--out", out, "--install"], {
      cwd: ROOT,
      stdio: "pipe",
    });
  });

  afterAll(() => {
    if (out) rmSync(out, { recursive: true, force: true });
  });

  it("installs only the dependencies that cannot be bundled", () => {
    const manifest = JSON.parse(readFileSync(join(out, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    expect(Object.keys(manifest.dependencies)).toEqual(["@electric-sql/pglite"]);
    expect(readdirSync(join(out, "node_modules")).filter((name) => !name.startsWith("."))).toEqual([
      "@electric-sql",
    ]);
    // No TypeScript runner, test runner or build tool in the runtime tree.
    expect(readFileSync(join(out, "main.mjs"), "utf8")).not.toMatch(/from "tsx|from "vitest|from "esbuild/);
  });

  it.each(engines)(
    "starts with plain node on %s, serves the web app and the catalogue, and syncs the sandbox",
    async (engine) => {
      let database: TestDatabase | undefined;
      let server: Proc | undefined;
      let sandbox: Proc | undefined;
      try {
        // An empty database: the compiled server must find and apply its migrations.
        database = await createTestDatabase(engine, { empty: true });
        const port = await freePort();
        const sandboxPort = await freePort();
        const url = `http://127.0.0.1:${port}`;
        const env: Record<string, string> = {
          PORT: String(port),
          HOST: "127.0.0.1",
          PUBLIC_URL: url,
          DATA_DIR: database.dataDir,
          PALISADE_ADMIN_EMAIL: ADMIN.email,
          PALISADE_ADMIN_PASSWORD: ADMIN.password,
          SANDBOX_PORT: String(sandboxPort),
          SANDBOX_ACTIVITY: "false",
        };
        if (database.databaseUrl) {
          // As compose.yaml runs it: the sandbox cloud as its own process, reached at SANDBOX_URL.
          env.DATABASE_URL = database.databaseUrl;
          env.SANDBOX_URL = `http://127.0.0.1:${sandboxPort}`;
          const dataDir = join(database.dataDir, "sandbox");
          sandbox = startNode(
            database.dataDir,
            [join(out, "sandbox.mjs"), "serve", "--port", String(sandboxPort), "--data-dir", dataDir],
            {},
          );
        }
        const started = performance.now();
        server = startNode(database.dataDir, [join(out, "main.mjs")], env);
        const proc = server;
        await until("/readyz to answer 200", proc, async () => (await fetch(`${url}/readyz`)).status === 200);
        console.log(
          `production build on ${engine}: /readyz 200 after ${Math.round(performance.now() - started)} ms`,
        );

        const page = await fetch(`${url}/policies`);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain('<div id="root">');

        const policies = createClient(
          PolicyService,
          createConnectTransport({ baseUrl: url, httpVersion: "1.1" }),
        );
        const definition = await policies.getDefinitionBySlug({
          slug: "protect-s3-account-public-access-block",
        });
        expect(definition.displayName).toMatch(/S3 Block Public Access/);

        const signIn = await fetch(`${url}/api/auth/sign-in/email`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: url },
          body: JSON.stringify(ADMIN),
        });
        expect(signIn.status).toBe(200);

        // The AWS and Azure clients reach the sandbox cloud (Azure over TLS) from the bundle.
        await until("both sandbox hierarchies to sync", proc, async () => syncedHierarchies(proc) === 2);
      } finally {
        await stop(server);
        await stop(sandbox);
        await database?.drop();
      }
    },
  );
});

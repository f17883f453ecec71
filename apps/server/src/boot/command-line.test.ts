import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const main = fileURLToPath(new URL("../main.ts", import.meta.url));
const tsx = fileURLToPath(new URL("../../../../node_modules/.bin/tsx", import.meta.url));

function run(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(tsx, [main, ...args], { env: { ...process.env, ...env } }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe("the server's command line", () => {
  it("prints its usage for --help and exits 0", async () => {
    const result = await run(["--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Palisade takes its settings from the environment");
  });

  it.each([
    [["--bogus"], {}, "Unknown option '--bogus'"],
    [["stray"], {}, "Unexpected argument 'stray'"],
    [[], { PORT: "abc" }, 'PORT must be a port number, got "abc"'],
    [[], { MAX_REQUEST_BYTES: "-1" }, "MAX_REQUEST_BYTES must be a positive number"],
  ])("%j %j: the problem and the usage, exit 2, no stack trace", async (args, env, problem) => {
    const result = await run(args, env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(problem);
    expect(result.stderr).toContain("Usage: npm start");
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const cli = fileURLToPath(new URL("../src/cli.ts", import.meta.url));
const tsx = fileURLToPath(new URL("../../../node_modules/.bin/tsx", import.meta.url));

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(tsx, [cli, ...args], (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe("the sandbox command line", () => {
  it.each([
    [["--help"], "npm run sandbox -- try [options]"],
    [["-h"], "npm run sandbox -- try [options]"],
    [["help"], "npm run sandbox -- try [options]"],
    [["try", "--help"], "--provider aws|azure"],
    [["try", "--provider", "aws", "-h"], "--provider aws|azure"],
    [["help", "try"], "--provider aws|azure"],
    [["serve", "--help"], "--no-activity"],
    [["help", "serve"], "--no-activity"],
  ])("%j prints its usage and exits 0", async (args, expected) => {
    const result = await run(args);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(expected);
    expect(result.stderr).toBe("");
  });

  it.each([
    [["try", "--bogus"], "Unknown option '--bogus'", "--provider aws|azure"],
    [["--bogus"], "Unknown option '--bogus'", "--no-activity"],
    [["serve", "--port", "abc"], "--port must be a whole number", "--no-activity"],
    [["--rate=-3"], "--rate must be a positive number", "--no-activity"],
    [["serve", "stray"], "Unexpected argument 'stray'", "--no-activity"],
    [
      ["try", "--provider", "gcp", "--principal", "p", "--action", "a", "--resource", "*"],
      "--provider must be aws or azure",
      "--provider aws|azure",
    ],
    [["try", "--provider", "aws"], "Missing --principal, --action, --resource.", "--provider aws|azure"],
    [
      [
        "try",
        "--provider",
        "aws",
        "--principal",
        "p",
        "--action",
        "a",
        "--resource",
        "*",
        "--context",
        "novalue",
      ],
      "--context expects key=value",
      "--provider aws|azure",
    ],
    [["try", "--principal"], "--principal", "--provider aws|azure"],
    [["deploy"], "Unknown command 'deploy'.", "npm run sandbox -- try [options]"],
    [["help", "deploy"], "Unknown command 'deploy'.", "npm run sandbox -- try [options]"],
  ])(
    "%j says what is wrong with the usage and exits 2, without a stack trace",
    async (args, problem, usage) => {
      const result = await run(args);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(problem);
      expect(result.stderr).toContain(usage);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(result.stderr).not.toContain("ERR_PARSE_ARGS");
    },
  );
});

import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";
import { applyCommand } from "./commands/apply";
import { auditCommand } from "./commands/audit";
import { exportCommand } from "./commands/export";
import { planCommand } from "./commands/plan";
import { validateCommand } from "./commands/validate";
import { describeCallError } from "./remote/client";
import { type Command, CommandFailed, type Io, UsageError } from "./usage";

/** The command tree: a new command is one more entry in its parent's list. */
export const root: Command = {
  name: "palisade",
  summary: "Palisade guardrails as code: export, validate, plan and apply a folder of YAML files.",
  help: [
    "Environment:",
    "  PALISADE_URL       the server's address, e.g. http://localhost:8080",
    "  PALISADE_API_KEY   an API key of the tenant (Team members → API keys)",
    "",
    "See docs/as-code.md for the file format and pipeline examples.",
  ].join("\n"),
  subcommands: [exportCommand, validateCommand, planCommand, applyCommand, auditCommand],
};

function usageOf(command: Command, path: string[]): string {
  const name = path.join(" ");
  const lines = [`${command.summary}`, ""];
  if (command.subcommands) {
    lines.push(`Usage: ${name} <command> [options]`, "", "Commands:");
    const width = Math.max(...command.subcommands.map((c) => c.name.length));
    for (const sub of command.subcommands) lines.push(`  ${sub.name.padEnd(width)}  ${sub.summary}`);
    lines.push("", `Run "${name} <command> --help" for a command's options.`, "", "Options:");
  } else {
    lines.push(
      `Usage: ${name}${command.args ? ` ${command.args}` : ""}${command.options ? " [options]" : ""}`,
    );
    const options = Object.entries(command.options ?? {});
    lines.push("", "Options:");
    for (const [option, spec] of options) {
      const flag = `--${option}${spec.type === "string" ? " <value>" : ""}`;
      lines.push(`  ${flag.padEnd(26)}${spec.description}`);
    }
  }
  lines.push(`${"  -h, --help".padEnd(28)}show this help`);
  if (command.help) lines.push("", command.help);
  return lines.join("\n");
}

function processIo(): Io {
  return {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    async confirm(question) {
      if (!process.stdin.isTTY) return false;
      const rl = createInterface({ input: process.stdin, output: process.stderr });
      try {
        return /^(y|yes)$/i.test((await rl.question(`${question} [y/N] `)).trim());
      } finally {
        rl.close();
      }
    },
  };
}

/** Runs the command line; answers the exit code. Never throws: every failure is told in words. */
export async function main(argv: string[], io: Io = processIo(), env = process.env): Promise<number> {
  let command = root;
  const path = ["palisade"];
  let rest = argv;
  while (command.subcommands) {
    const [first, ...others] = rest;
    if (first === undefined || first === "-h" || first === "--help" || first === "help") {
      (first === undefined ? io.err : io.out)(usageOf(command, path));
      return first === undefined ? 2 : 0;
    }
    const next = command.subcommands.find((c) => c.name === first);
    if (!next) {
      io.err(`${path.join(" ")}: unknown command "${first}".\n\n${usageOf(command, path)}`);
      return 2;
    }
    command = next;
    path.push(next.name);
    rest = others;
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: rest,
      options: {
        ...Object.fromEntries(
          Object.entries(command.options ?? {}).map(([name, { type, short }]) => [
            name,
            short ? { type, short } : { type },
          ]),
        ),
        help: { type: "boolean", short: "h" },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    io.err(`${path.join(" ")}: ${(error as Error).message}\n\n${usageOf(command, path)}`);
    return 2;
  }
  if (parsed.values.help) {
    io.out(usageOf(command, path));
    return 0;
  }
  const { min = 0, max = 0 } = command.positionals ?? {};
  if (parsed.positionals.length < min || parsed.positionals.length > max) {
    const wanted = command.args ? `takes ${command.args}` : "takes no arguments";
    io.err(`${path.join(" ")}: ${wanted}.\n\n${usageOf(command, path)}`);
    return 2;
  }
  try {
    return (
      (await command.run?.({
        positionals: parsed.positionals,
        values: parsed.values as Record<string, string | boolean | undefined>,
        io,
        env,
      })) ?? 0
    );
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${path.join(" ")}: ${error.message}\n\n${usageOf(command, path)}`);
      return 2;
    }
    if (error instanceof CommandFailed) {
      io.err(`error: ${error.message}`);
      return 1;
    }
    io.err(`error: ${describeCallError(error)}`);
    return 1;
  }
}

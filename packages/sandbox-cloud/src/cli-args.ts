import { type ParseArgsOptionsConfig, parseArgs } from "node:util";

/** A command line that cannot be run as written: said with the command's usage, exit code 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage: string,
  ) {
    super(message);
  }
}

/** Asked for with `--help` or `-h`: the usage on stdout, exit code 0. */
export class HelpRequested extends Error {
  constructor(readonly usage: string) {
    super("help requested");
  }
}

/**
 * The options of one command, strictly: an unknown option, a missing value or a stray argument
 * is a UsageError carrying the command's usage, not Node's stack trace.
 */
export function parseOptions<const T extends ParseArgsOptionsConfig>(
  args: string[],
  options: T,
  usage: string,
) {
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; options: T; strict: true; allowPositionals: false }>
  >;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: false });
  } catch (error) {
    if (args.includes("--help") || args.includes("-h")) throw new HelpRequested(usage);
    const code = (error as { code?: string }).code;
    if (code?.startsWith("ERR_PARSE_ARGS_"))
      throw new UsageError(firstSentence((error as Error).message), usage);
    throw error;
  }
  if (args.includes("--help") || args.includes("-h")) throw new HelpRequested(usage);
  return parsed.values;
}

function firstSentence(message: string): string {
  const end = message.indexOf(". ");
  return end < 0 ? message : message.slice(0, end + 1);
}

/** An integer option within bounds, or a UsageError naming the option. */
export function integerOption(
  name: string,
  raw: string | undefined,
  fallback: number,
  bounds: { min: number; max: number },
  usage: string,
): number {
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < bounds.min || value > bounds.max) {
    throw new UsageError(
      `${name} must be a whole number from ${bounds.min} to ${bounds.max}, got '${raw}'.`,
      usage,
    );
  }
  return value;
}

/** A positive number option, or a UsageError naming the option. */
export function positiveOption(
  name: string,
  raw: string | undefined,
  fallback: number,
  usage: string,
): number {
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    throw new UsageError(`${name} must be a positive number, got '${raw}'.`, usage);
  }
  return value;
}

/**
 * Runs a command line: help on stdout (exit 0), usage errors with the usage on stderr (exit 2),
 * any other failure as its message on stderr (exit 1). Never a stack trace.
 */
export async function runCommandLine(main: () => Promise<number | undefined>): Promise<number | undefined> {
  try {
    return await main();
  } catch (error) {
    if (error instanceof HelpRequested) {
      console.log(error.usage);
      return 0;
    }
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${error.usage}`);
      return 2;
    }
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  }
}

/** A command-line option, with the sentence its help shows. */
export interface OptionSpec {
  type: "string" | "boolean";
  short?: string;
  description: string;
}

/** Bad input on the command line: printed with the command's usage, exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** A failure that is not bad input (a server refusal, a file problem): printed, exit code 1. */
export class CommandFailed extends Error {
  override name = "CommandFailed";
}

/** Where a command writes and how it asks; the process's streams, or a test's. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Asks a yes/no question on the terminal; false when there is no terminal to ask on. */
  confirm(question: string): Promise<boolean>;
}

export interface CommandContext {
  positionals: string[];
  values: Record<string, string | boolean | undefined>;
  io: Io;
  env: NodeJS.ProcessEnv;
}

/**
 * One command of the tree. A command either runs or holds subcommands (`palisade audit verify`),
 * so a new command is one more entry in its parent's list.
 */
export interface Command {
  name: string;
  summary: string;
  /** The argument part of the usage line, e.g. "<dir>". */
  args?: string;
  /** The help text below the usage line. */
  help?: string;
  options?: Record<string, OptionSpec>;
  /** How many positional arguments it takes. */
  positionals?: { min: number; max: number };
  subcommands?: Command[];
  run?(context: CommandContext): Promise<number>;
}

import type { DestinationStream } from "pino";
import pretty from "pino-pretty";

/**
 * Readable, coloured lines when a person watches the terminal; JSON lines (the default) for
 * pipes, files, containers and CI, where machines read the log.
 */
export function logDestination(
  stdout: { isTTY?: boolean } = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): DestinationStream | undefined {
  if (!stdout.isTTY || env.CI) return undefined;
  return pretty({ colorize: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname" });
}

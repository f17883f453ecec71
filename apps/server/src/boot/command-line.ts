import { HelpRequested, parseOptions, UsageError } from "@palisade/sandbox-cloud/cli-args";
import { type Config, readConfig } from "./config";

const USAGE = `Usage: npm start   (the server alone: npm run -w @palisade/server start)

Palisade takes its settings from the environment, e.g. PORT=9090 npm start:
  PORT, HOST                   where it listens (8080, 0.0.0.0)
  DATA_DIR                     embedded database, secret key, sandbox state (./.palisade)
  DATABASE_URL                 PostgreSQL instead of the embedded database
  PUBLIC_URL                   the address users reach it at
  PALISADE_ADMIN_EMAIL, PALISADE_ADMIN_PASSWORD   the first administrator
  MAX_REQUEST_BYTES, PUBLIC_RATE_LIMIT_BURST, PUBLIC_RATE_LIMIT_PER_SECOND, TRUST_PROXY, LOG_LEVEL
  PALISADE_SANDBOX, SANDBOX_PORT, SANDBOX_ACTIVITY, SANDBOX_ACTIVITY_RATE
The README's table says what each one means and its default.

Options:
  -h, --help   this help`;

/**
 * The server's settings, or the process ends: with the usage for --help (exit 0), and with the
 * problem and the usage for an unknown option or a bad setting (exit 2), never a stack trace.
 */
export function settingsOrExit(argv: string[], env: NodeJS.ProcessEnv = process.env): Config {
  try {
    parseOptions(argv, { help: { type: "boolean", short: "h" } }, USAGE);
    try {
      return readConfig(env);
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error), USAGE);
    }
  } catch (error) {
    if (error instanceof HelpRequested) {
      console.log(error.usage);
      process.exit(0);
    }
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${error.usage}`);
      process.exit(2);
    }
    throw error;
  }
}

import { settingsOrExit } from "./boot/command-line";
import { logDestination } from "./log-destination";
import { createLogger } from "./logger";

const config = settingsOrExit(process.argv.slice(2));
// Loaded after the command line is read, so --help and a bad setting answer at once.
const { createPalisade } = await import("./boot/app");
const logger = createLogger(config.logLevel, logDestination());
const palisade = await createPalisade(config, logger);

const generatedPassword = palisade.bootstrap?.generatedPassword;
if (generatedPassword) {
  // Shown once, on the terminal only, never in the structured log.
  process.stdout.write(
    `\nPalisade administrator created.\n  e-mail:   ${palisade.bootstrap?.adminEmail}\n  password: ${generatedPassword}\nSign in at ${config.publicUrl} and keep this password safe; it is not shown again.\n\n`,
  );
}

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, "shutting down");
  const forceExit = setTimeout(() => process.exit(1), 10_000);
  try {
    await palisade.close();
  } finally {
    clearTimeout(forceExit);
    process.exit(0);
  }
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));

await palisade.app.listen({ port: config.port, host: config.host });
logger.info({ url: config.publicUrl }, "Palisade is ready");

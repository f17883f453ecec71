import { createAuth } from "./auth/auth";
import { bootstrapFirstTenant } from "./auth/bootstrap";
import { readConfig } from "./config";
import { openDatabase } from "./db/database";
import { createLogger } from "./logger";
import { loadSecretKey } from "./secrets";
import { buildServer } from "./server";

const config = readConfig();
const logger = createLogger(config.logLevel);

const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
await database.migrate();
logger.info({ engine: database.engine }, "database migrated");

const trustedOrigins = [
  config.publicUrl,
  `http://localhost:${config.port}`,
  `http://127.0.0.1:${config.port}`,
];
const auth = createAuth({
  db: database.db,
  secret: loadSecretKey(config.dataDir),
  publicUrl: config.publicUrl,
  trustedOrigins,
});

const bootstrap = await bootstrapFirstTenant(
  { db: database.db, auth },
  { email: config.adminEmail, password: config.adminPassword },
);
if (bootstrap) {
  logger.info(
    { tenantId: bootstrap.tenantId, adminEmail: bootstrap.adminEmail },
    "created tenant Default and its administrator",
  );
  if (bootstrap.generatedPassword) {
    // Printed once, to the terminal only, never to the structured log.
    process.stdout.write(
      `\nPalisade administrator created.\n  e-mail:   ${bootstrap.adminEmail}\n  password: ${bootstrap.generatedPassword}\nSign in at ${config.publicUrl} and keep this password safe; it is not shown again.\n\n`,
    );
  }
}

const app = await buildServer({
  database,
  auth,
  logger,
  webDist: config.webDist,
  trustProxy: config.trustProxy,
  publicRateLimit: {
    burst: Number(process.env.PUBLIC_RATE_LIMIT_BURST ?? 60),
    perSecond: Number(process.env.PUBLIC_RATE_LIMIT_PER_SECOND ?? 10),
  },
});

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, "shutting down");
  const timer = setTimeout(() => process.exit(1), 10_000);
  try {
    await app.close();
    await database.close();
  } finally {
    clearTimeout(timer);
    process.exit(0);
  }
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));

await app.listen({ port: config.port, host: config.host });
logger.info({ url: config.publicUrl }, "Palisade is ready");

import { join } from "node:path";
import { createAuth } from "../auth/auth";
import { bootstrapFirstTenant } from "../auth/bootstrap";
import { openDatabase } from "../db/database";
import { startJobQueue } from "../jobs/job-queue";
import { enqueueNotification } from "../jobs/notification-job";
import { enqueuePropagationSettle } from "../jobs/propagation-settle-job";
import { enqueueMail } from "../jobs/send-mail-job";
import { enqueueMessage } from "../jobs/send-message-job";
import type { Logger } from "../logger";
import { createMailSender, describeMailTarget } from "../mail/mail-sender";
import { createMessageGateway, describeMessageTarget } from "../messaging/message-gateway";
import { createAccountSecurityAudit } from "../modules/audit/account-security-audit";
import { recordAudit } from "../modules/audit/audit-log";
import { sealUnchainedAuditRecords } from "../modules/audit/audit-repository";
import { createSecretBox } from "../modules/connector/secret-box";
import { createBundleEngine } from "../modules/deployment/bundle-engine";
import { createExports } from "../modules/export/export-service";
import { createChatTokens } from "../modules/notification/chat-signature";
import { loadCatalogue } from "../modules/policy-definition/load-catalogue";
import { createRecommendationComputer } from "../modules/recommendation/recommendation-compute";
import { listUserTenants } from "../modules/tenant/tenant-repository";
import { createRateLimiter } from "../rpc/rate-limiter";
import { loadSecretKey } from "../secrets";
import type { Config } from "./config";
import { registerWorkers } from "./register-workers";
import { startCloudConnections } from "./sandbox-connection";
import { buildServer } from "./server";
import { createTenantDirectory } from "./tenant-directory";

/**
 * Everything Palisade needs before it listens: the policy catalogue, the migrated database,
 * the identity provider, the first tenant on an empty database, and the HTTP server.
 */
export async function createPalisade(config: Config, logger: Logger) {
  // Before the database: a broken catalogue should stop start-up at once.
  const { catalogue, milliseconds, cached } = loadCatalogue({ cacheDir: join(config.dataDir, "cache") });
  logger.info(
    {
      definitions: catalogue.definitions.length,
      frameworks: catalogue.frameworks.length,
      milliseconds,
      cached,
    },
    "policy catalogue loaded",
  );

  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    onConnectionError: (error) => logger.warn({ err: error.message }, "idle database connection failed"),
  });
  await database.migrate();
  // Records written before the audit chain existed join it, before any change is served.
  await database.exclusive(() => sealUnchainedAuditRecords(database.db));
  logger.info({ engine: database.engine }, "database migrated");
  const serverKey = loadSecretKey(config.dataDir);
  // Mailed links and codes wait in the queue sealed with the instance key.
  const jobs = await startJobQueue(database, logger, { sealer: createSecretBox(serverKey) });
  const exports = createExports({
    db: database.db,
    jobs,
    serverKey,
    publicUrl: config.publicUrl,
    logger,
    audit: recordAudit,
  });

  // Public RPCs and /api/auth/* share buckets in the database with every other replica. The
  // public buckets (`take`) serve a lease's calls while the database grants it, so a lookup never
  // waits for a write; the /api/auth windows (`count`) are credential limits and wait.
  const rateLimiter = createRateLimiter(database.db, config.publicRateLimit, undefined, {
    provisional: true,
  });
  const port = config.port;
  const trustedOrigins = [config.publicUrl, `http://localhost:${port}`, `http://127.0.0.1:${port}`];
  const tenants = createTenantDirectory(database.db);
  const auth = createAuth({
    db: database.db,
    secret: serverKey,
    publicUrl: config.publicUrl,
    // Identity providers on private addresses are named by the operator (SSO_TRUSTED_ORIGINS).
    trustedOrigins: [...trustedOrigins, ...config.ssoTrustedOrigins],
    logger,
    enqueueMail: (payload) => enqueueMail(jobs, payload),
    enqueueMessage: (payload) => enqueueMessage(jobs, payload),
    allowSignUp: config.allowSignUp,
    passwordPolicy: config.passwordPolicy,
    signInsPerMinute: config.signInsPerMinute,
    rateLimiter,
    socialSignIn: config.socialSignIn,
    auditAccountChange: createAccountSecurityAudit(database.db, listUserTenants),
    tenants,
  });

  // Replicas starting at once: one creates the first tenant, the others find it.
  const bootstrap = await database.exclusive(() =>
    bootstrapFirstTenant(
      { db: database.db, auth, tenants },
      { email: config.adminEmail, password: config.adminPassword },
    ),
  );
  if (bootstrap) {
    logger.info(
      { tenantId: bootstrap.tenantId, adminEmail: bootstrap.adminEmail },
      "created tenant Default and its administrator",
    );
  }

  const mail = createMailSender(config.mail, logger);
  logger.info(
    { via: config.mail.smtpUrl ? "smtp" : "outbox", to: describeMailTarget(config.mail) },
    "mail configured",
  );
  logger.info(
    { via: config.messaging.webhookUrl ? "webhook" : "outbox", to: describeMessageTarget(config.messaging) },
    "phone messages configured",
  );

  const cloud = await startCloudConnections({ config, db: database.db, logger });
  const engine = createBundleEngine({
    db: database.db,
    catalogue,
    runtime: cloud.service.runtime,
    publicUrl: config.publicUrl,
    logger,
    onBundleFailed: async (tenantId, bundleId) => {
      await enqueueNotification(jobs, { kind: "deployment.failed", tenantId, bundleId });
    },
    onPropagating: (endsAt) => enqueuePropagationSettle(jobs, { startAfter: endsAt }),
    lock: database.lock,
  });

  const recommendations = createRecommendationComputer({
    db: database.db,
    catalogue,
    runtime: cloud.service.runtime,
    logger,
  });

  const notifications = {
    db: database.db,
    secretBox: createSecretBox(serverKey),
    tokens: createChatTokens(serverKey),
    publicUrl: config.publicUrl,
    mail,
    slackApiUrl: config.notifications.slackApiUrl,
  };

  const app = await buildServer({
    database,
    auth,
    tenants,
    logger,
    cloud: cloud.service,
    catalogue,
    jobs,
    engine,
    exports,
    publicUrl: config.publicUrl,
    invitationTtlHours: config.invitationTtlHours,
    allowSignUp: config.allowSignUp,
    passwordPolicy: config.passwordPolicy,
    webDist: config.webDist,
    trustProxy: config.trustProxy,
    publicRateLimiter: rateLimiter,
    maxRequestBytes: config.maxRequestBytes,
    trustedOrigins,
    notifications,
    recommendations,
    signIn: { socialSignIn: config.socialSignIn, ssoTrustedOrigins: config.ssoTrustedOrigins },
  });

  await registerWorkers(jobs, {
    db: database.db,
    runtime: cloud.service.runtime,
    catalogue,
    logger,
    engine,
    exports,
    mail: { sender: mail, retry: config.mail.retry },
    messages: { gateway: createMessageGateway(config.messaging, logger), retry: config.mail.retry },
    notifications: { ...notifications, retry: config.notifications.retry },
    cloudRetry: config.cloudRetry,
    recommendations,
  });

  await database.exclusive(() => cloud.connectSandbox());

  return {
    app,
    auth,
    database,
    cloud,
    jobs,
    bootstrap,
    async close() {
      await app.close();
      await cloud.close();
      await jobs.stop();
      mail.close();
      await database.close();
    },
  };
}

export type Palisade = Awaited<ReturnType<typeof createPalisade>>;

import { join, resolve } from "node:path";
import { DEFAULT_PASSWORD_POLICY, type PasswordPolicy, parseRequiredClasses } from "../auth/password-policy";
import { readSocialSignIn, type SocialSignInConfig } from "../auth/social-auth";
import type { CloudRetry } from "../jobs/bundle-sync-job";
import type { NotificationRetry } from "../jobs/notification-job";
import type { MailRetry } from "../jobs/send-mail-job";
import type { MailSettings } from "../mail/mail-sender";
import type { MessageSettings } from "../messaging/message-gateway";

/** Server settings, read once from the environment. */
export interface Config {
  port: number;
  host: string;
  /** Where the embedded database and generated secrets live. */
  dataDir: string;
  /** PostgreSQL connection string; the embedded database is used when absent. */
  databaseUrl: string | undefined;
  /** Public origin of the app, used in links (waiver links, auth callbacks). */
  publicUrl: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  webDist: string;
  logLevel: string;
  /**
   * Whom to believe about the client address in X-Forwarded-For: nobody (false), any proxy
   * (true), or only proxies at these addresses and networks.
   */
  trustProxy: boolean | string[];
  /** Public (no sign-in) methods: calls allowed at once per client address, and per second after. */
  publicRateLimit: { burst: number; perSecond: number };
  /** Largest request body accepted on any route, after decompression. */
  maxRequestBytes: number;
  /**
   * The sandbox cloud started in-process, or reached at `url` when it runs as its own process,
   * and the sandbox connectors made on first start.
   */
  sandbox: {
    enabled: boolean;
    url: string | undefined;
    port: number;
    dataDir: string;
    activity: boolean;
    actionsPerMinute: number;
    /** CloudTrail LookupEvents calls per second the in-process sandbox allows (AWS: 2). */
    cloudTrailLookupsPerSecond: number;
    /** Records the in-process sandbox keeps in each audit stream. */
    maxAuditRecords: number;
    /** The most the in-process sandbox's Activity Log events wait before they are listed. */
    activityLogLagSeconds: number;
    /**
     * Seconds the in-process sandbox takes to enforce a new or changed Azure assignment or a new
     * exemption: short for the local run (Azure takes around five minutes), never zero.
     */
    azurePropagationSeconds: number;
    /** Average seconds before the in-process sandbox's organisation trail delivers a call's log file. */
    trailDeliveryDelaySeconds: number;
  };
  /** The IAM principal this server assumes connector roles as; shown in the AWS trust policy. */
  awsPrincipalArn: string | undefined;
  /** How long an invitation link stays valid. */
  invitationTtlHours: number;
  /** Anyone may create a password account (verified by e-mail before it signs in). Off by default. */
  allowSignUp: boolean;
  /** PASSWORD_REQUIRED_CLASSES and the fixed lengths. */
  passwordPolicy: PasswordPolicy;
  /**
   * Password and e-mailed-code sign-ins a minute from one client address (many people behind one
   * address, e.g. an office's NAT, may need more).
   */
  signInsPerMinute: number;
  /** Retries of deployments while the cloud is unreachable or throttling. */
  cloudRetry: CloudRetry;
  /** Outgoing mail: SMTP, or .eml files in the outbox; failed sends are retried this way. */
  mail: MailSettings & { retry: MailRetry };
  /** Phone messages (SMS, voice, WhatsApp): a signed webhook, or files in the outbox; retried as mail is. */
  messaging: MessageSettings;
  /** Slack, Teams and e-mail notifications: how failed deliveries are retried; Slack's Web API. */
  notifications: { retry: NotificationRetry; slackApiUrl: string };
  /** Social sign-in providers and the generic OpenID Connect provider (AUTH_*). */
  socialSignIn: SocialSignInConfig;
  /**
   * SSO_TRUSTED_ORIGINS: identity providers on private addresses (an intranet IdP) that single
   * sign-on may call; public ones need no entry.
   */
  ssoTrustedOrigins: string[];
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  }
  const host = env.HOST ?? "0.0.0.0";
  const dataDir = resolve(env.DATA_DIR ?? ".palisade");
  // A fixed port by default, so `npm run sandbox -- try` reaches the local run's sandbox as is.
  const sandboxPort = Number(env.SANDBOX_PORT ?? 4510);
  if (!Number.isInteger(sandboxPort) || sandboxPort < 0 || sandboxPort > 65535) {
    throw new Error(`SANDBOX_PORT must be a port number, got "${env.SANDBOX_PORT}"`);
  }
  return {
    port,
    host,
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ""),
    adminEmail: env.PALISADE_ADMIN_EMAIL || undefined,
    adminPassword: env.PALISADE_ADMIN_PASSWORD || undefined,
    webDist: resolve(env.WEB_DIST ?? new URL("../../../web/dist", import.meta.url).pathname),
    logLevel: env.LOG_LEVEL ?? "info",
    trustProxy: trustProxy(env.TRUST_PROXY),
    publicRateLimit: {
      burst: positiveNumber(env, "PUBLIC_RATE_LIMIT_BURST", 60),
      perSecond: positiveNumber(env, "PUBLIC_RATE_LIMIT_PER_SECOND", 10),
    },
    maxRequestBytes: Math.floor(positiveNumber(env, "MAX_REQUEST_BYTES", 1024 * 1024)),
    sandbox: {
      enabled: env.PALISADE_SANDBOX !== "false",
      url: sandboxUrl(env.SANDBOX_URL),
      port: sandboxPort,
      dataDir: join(dataDir, "sandbox"),
      activity: env.SANDBOX_ACTIVITY !== "false",
      actionsPerMinute: positiveNumber(env, "SANDBOX_ACTIVITY_RATE", 12),
      cloudTrailLookupsPerSecond: positiveNumber(env, "SANDBOX_CLOUDTRAIL_LOOKUPS_PER_SECOND", 2),
      maxAuditRecords: Math.floor(positiveNumber(env, "SANDBOX_AUDIT_RECORDS", 20_000)),
      activityLogLagSeconds: positiveNumber(env, "SANDBOX_ACTIVITY_LOG_LAG_SECONDS", 60),
      azurePropagationSeconds: positiveNumber(env, "SANDBOX_AZURE_PROPAGATION_SECONDS", 30),
      // Shorter than CloudTrail's five minutes so a local run shows its events soon; never zero.
      trailDeliveryDelaySeconds: positiveNumber(env, "SANDBOX_TRAIL_DELAY_SECONDS", 20),
    },
    awsPrincipalArn: env.PALISADE_AWS_PRINCIPAL_ARN || undefined,
    invitationTtlHours: positiveNumber(env, "INVITATION_TTL_HOURS", 168),
    allowSignUp: flag(env, "ALLOW_SIGN_UP", false),
    signInsPerMinute: Math.floor(positiveNumber(env, "SIGN_IN_RATE_LIMIT_PER_MINUTE", 10)),
    passwordPolicy: {
      ...DEFAULT_PASSWORD_POLICY,
      requiredClasses: parseRequiredClasses(env.PASSWORD_REQUIRED_CLASSES),
    },
    cloudRetry: {
      limit: wholeNumber(env, "CLOUD_RETRY_LIMIT", 6),
      delaySeconds: positiveNumber(env, "CLOUD_RETRY_DELAY_SECONDS", 2),
      failedRetrySeconds: positiveNumber(env, "FAILED_DEPLOYMENT_RETRY_SECONDS", 30),
    },
    mail: {
      smtpUrl: smtpUrl(env.SMTP_URL),
      from: mailFrom(env.MAIL_FROM),
      outboxDir: join(dataDir, "outbox"),
      retry: {
        limit: wholeNumber(env, "MAIL_RETRY_LIMIT", 6),
        delaySeconds: wholeNumber(env, "MAIL_RETRY_DELAY_SECONDS", 30),
      },
    },
    messaging: messageSettings(env, join(dataDir, "outbox")),
    notifications: {
      retry: {
        limit: wholeNumber(env, "NOTIFY_RETRY_LIMIT", 5),
        delaySeconds: Math.max(1, wholeNumber(env, "NOTIFY_RETRY_DELAY_SECONDS", 30)),
      },
      slackApiUrl: (env.SLACK_API_URL || "https://slack.com/api").replace(/\/$/, ""),
    },
    socialSignIn: readSocialSignIn(env),
    ssoTrustedOrigins: origins("SSO_TRUSTED_ORIGINS", env.SSO_TRUSTED_ORIGINS),
  };
}

function messageSettings(env: NodeJS.ProcessEnv, outboxDir: string): MessageSettings {
  const url = env.MESSAGE_WEBHOOK_URL?.trim() || undefined;
  const secret = env.MESSAGE_WEBHOOK_SECRET || undefined;
  if (url) {
    if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
      throw new Error(
        "MESSAGE_WEBHOOK_URL must be an https:// URL such as https://sms-bridge.example.com/palisade",
      );
    if (!secret || secret.length < 16)
      throw new Error(
        "MESSAGE_WEBHOOK_SECRET must be set, at least 16 characters, when MESSAGE_WEBHOOK_URL is",
      );
  }
  return { webhookUrl: url, webhookSecret: url ? secret : undefined, outboxDir };
}

function origins(name: string, raw: string | undefined): string[] {
  const list = (raw ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  for (const entry of list) {
    if (!URL.canParse(entry) || !/^https?:$/.test(new URL(entry).protocol)) {
      throw new Error(`${name} must list origins such as https://idp.intranet.example, got "${entry}"`);
    }
  }
  return list.map((entry) => new URL(entry).origin);
}

function trustProxy(raw: string | undefined): boolean | string[] {
  const value = (raw ?? "").trim();
  if (value === "" || value === "false") return false;
  if (value === "true") return true;
  const addresses = value.split(",").map((part) => part.trim());
  if (addresses.some((a) => !/^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(a))) {
    throw new Error(
      `TRUST_PROXY must be true, false or the proxies' addresses (10.0.0.0/8,192.168.1.5), got "${value}"`,
    );
  }
  return addresses;
}

function sandboxUrl(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  if (!URL.canParse(raw) || !/^https?:$/.test(new URL(raw).protocol)) {
    throw new Error(`SANDBOX_URL must be an http:// URL such as http://sandbox:4510, got "${raw}"`);
  }
  return raw.replace(/\/$/, "");
}

// The URL may hold a password: a message about it never repeats it.
function smtpUrl(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error("SMTP_URL must be a URL such as smtp://user:password@mail.example.com:587");
  }
  if (url.protocol !== "smtp:" && url.protocol !== "smtps:") {
    throw new Error("SMTP_URL must start with smtp:// (STARTTLS when offered) or smtps:// (implicit TLS)");
  }
  if (!url.hostname) throw new Error("SMTP_URL must name the mail server's host");
  return raw;
}

function mailFrom(raw: string | undefined): string {
  const from = raw?.trim() || "Palisade <palisade@localhost>";
  if (!/^[^\r\n]*[^\s@<>]@[^\s@<>]+>?$/.test(from)) {
    throw new Error(`MAIL_FROM must be an address such as "Palisade <palisade@example.com>", got "${from}"`);
  }
  return from;
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (raw === "true") return true;
  if (raw === "false") return false;
  throw new Error(`${name} must be true or false, got "${raw}"`);
}

function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, got "${raw}"`);
  return value;
}

function positiveNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`${name} must be a positive number, got "${raw}"`);
  return value;
}

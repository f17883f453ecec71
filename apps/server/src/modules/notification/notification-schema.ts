import { boolean, index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { tenantId, timestamps } from "../../db/columns";

/**
 * What a tenant is notified about and through which channels. Webhook URLs, the Slack signing
 * secret and bot token are sealed (AES-256-GCM under the server key), never stored in clear.
 */
export const notificationSettings = pgTable("notification_settings", {
  tenantId: tenantId().primaryKey(),
  onWaiverPending: boolean("on_waiver_pending").notNull().default(true),
  onWaiverDecided: boolean("on_waiver_decided").notNull().default(true),
  onWaiverExpiring: boolean("on_waiver_expiring").notNull().default(true),
  onDeploymentFailed: boolean("on_deployment_failed").notNull().default(true),
  emailEnabled: boolean("email_enabled").notNull().default(false),
  slackEnabled: boolean("slack_enabled").notNull().default(false),
  teamsEnabled: boolean("teams_enabled").notNull().default(false),
  slackWebhookUrl: text("slack_webhook_url"),
  slackSigningSecret: text("slack_signing_secret"),
  slackBotToken: text("slack_bot_token"),
  teamsWebhookUrl: text("teams_webhook_url"),
  ...timestamps(),
});

/** The latest notification's outcome per channel, shown on the settings page. */
export const notificationDeliveries = pgTable(
  "notification_deliveries",
  {
    tenantId: tenantId(),
    channel: text("channel").notNull(),
    status: text("status").notNull(),
    error: text("error").notNull().default(""),
    subject: text("subject").notNull().default(""),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.channel] })],
);

/**
 * Single-use chat callbacks: a Teams card's action token (issued, then spent once) and each
 * signed Slack request seen (a replay finds its signature already here).
 */
export const chatNonces = pgTable(
  "chat_nonces",
  {
    id: text("id").primaryKey(),
    tenantId: tenantId(),
    kind: text("kind").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("chat_nonces_expires_idx").on(t.expiresAt)],
);

// The sign-in history of each account, written by the auth module: every successful and every
// refused sign-in of a known account, with how and from where.
import { boolean, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { user } from "./auth-schema";

export const signInEvent = pgTable(
  "sign_in_event",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * password, email-otp, email-verification, magic-link, passkey, phone-otp, authenticator,
     * backup-code, sso-oidc, sso-saml or social.
     */
    method: text("method").notNull(),
    /** The provider of a single sign-on ("tenant-<id>") or social sign-in (its name, e.g. "GitHub"). */
    provider: text("provider"),
    success: boolean("success").notNull(),
    /** Why a refused sign-in was refused (e.g. INVALID_EMAIL_OR_PASSWORD); empty on success. */
    failureReason: text("failure_reason"),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
  },
  (t) => [index("sign_in_event_user_occurred_idx").on(t.userId, t.occurredAt)],
);

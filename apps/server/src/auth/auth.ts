import { apiKey } from "@better-auth/api-key";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { bearer, emailOTP, magicLink, organization, twoFactor } from "better-auth/plugins";
import { createAccessControl } from "better-auth/plugins/access";
import { defaultStatements } from "better-auth/plugins/organization/access";
import type { Database } from "../db/database";
import type { SendMailPayload } from "../jobs/send-mail-job";
import type { SendMessagePayload } from "../jobs/send-message-job";
import type { Logger } from "../logger";
import { magicLinkMail, signInCodeMail } from "../mail/mail-templates";
import * as ssoProviderTables from "../modules/sso/sso-provider-schema";
import * as teamTables from "../modules/team/team-schema";
import * as organizationTables from "../modules/tenant/organization-schema";
import type { RateLimiter } from "../rpc/rate-limiter";
import { accessKeyExchangePlugin, type VerifiedApiKey } from "./access-key-exchange";
import {
  accountAfterHook,
  accountBeforeHook,
  accountPasswordOptions,
  accountRateLimitRules,
  emailVerificationOptions,
  sessionCookieOptions,
} from "./account-auth";
import type { AuditAccountChange } from "./account-security-changes";
import { queuedAfterAnswer } from "./after-answer";
import * as authTables from "./auth-schema";
import { authLog } from "./credential-failure-log";
import { enchantedLinkPlugin } from "./enchanted-link-auth";
import { membershipDisabledPaths } from "./membership-doors";
import { passkeyPlugins } from "./passkey-auth";
import type { PasswordPolicy } from "./password-policy";
import { phoneCodeAtRest, phonePlugins } from "./phone-auth";
import {
  type SocialSignInConfig,
  socialPlugins,
  socialProviderOptions,
  socialRateLimitRules,
} from "./social-auth";
import { ssoCookieOptions, ssoDisabledPaths, ssoPlugins, ssoRateLimitRules } from "./sso-auth";
import type { TenantDirectory } from "./tenant-directory";
import { findLastActiveTenant, findUserByEmail } from "./user-repository";
import { sendMagicLinkByWhatsApp, WHATSAPP_LINK_METADATA, whatsAppLinkPlugin } from "./whatsapp-link-auth";

const authSchema = { ...authTables, ...organizationTables, ...teamTables, ...ssoProviderTables };

/** Prefix of Palisade API keys; a bearer credential with it is an API key, not a session. */
export const API_KEY_PREFIX = "pal_";

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 128;

/** The e-mailed sign-in code: six digits, ten minutes, five wrong tries. */
export const SIGN_IN_CODE = { length: 6, validSeconds: 600, allowedAttempts: 5 } as const;

/** The e-mailed sign-in link: ten minutes, one use. */
export const SIGN_IN_LINK_VALID_SECONDS = 600;

// Better Auth checks its own organisation endpoints (invite, change role) with these
// statements; Palisade's RPCs use the permission table of the contract instead.
const ac = createAccessControl({ ...defaultStatements, apiKey: ["create", "read", "update", "delete"] });
const administrator = ac.newRole({
  organization: ["update", "delete"],
  member: ["create", "update", "delete"],
  invitation: ["create", "cancel"],
  team: ["create", "update", "delete"],
  ac: ["create", "read", "update", "delete"],
  apiKey: ["create", "read", "update", "delete"],
});
const noOrganizationRights = ac.newRole({ organization: [], member: [], invitation: [], apiKey: [] });

export interface AuthOptions {
  db: Database;
  secret: string;
  publicUrl: string;
  trustedOrigins: string[];
  logger: Logger;
  /** Queues a message for durable delivery (the mail job). */
  enqueueMail: (payload: SendMailPayload) => Promise<unknown>;
  /** Queues a phone message (SMS, voice, WhatsApp) for durable delivery (the message job). */
  enqueueMessage: (payload: SendMessagePayload) => Promise<unknown>;
  /** ALLOW_SIGN_UP: open sign-up over HTTP (accounts verify their address first). */
  allowSignUp: boolean;
  /** The buckets shared by every replica on the database. */
  rateLimiter: RateLimiter;
  passwordPolicy: PasswordPolicy;
  /** SIGN_IN_RATE_LIMIT_PER_MINUTE: password and e-mailed-code sign-ins a minute per client address. */
  signInsPerMinute: number;
  /** Social providers and the generic OpenID Connect provider turned on in the environment. */
  socialSignIn: SocialSignInConfig;
  /** Audits a change to how an account signs in, in each of its tenants. */
  auditAccountChange?: AuditAccountChange;
  /** Tenants, members and single sign-on, as their modules keep them. */
  tenants: TenantDirectory;
}

/** Authenticator apps: 30 s codes of 6 digits, ten backup codes, a trusted device for 30 days. */
export const AUTHENTICATOR = { backupCodes: 10, trustDeviceDays: 30 } as const;

/**
 * The second factor. Better Auth asks for it after a password; the e-mailed code and the
 * enchanted link ask for it too, through the same step (createAuth adds their paths). A sign-in
 * link is not sent to an account with an authenticator app: the browser that follows it is not
 * the one that asked. The enchanted link signs in the page that asked, which can be asked.
 */
function authenticatorPlugin() {
  return twoFactor({
    issuer: "Palisade",
    trustDeviceMaxAge: AUTHENTICATOR.trustDeviceDays * 24 * 60 * 60,
    backupCodeOptions: { amount: AUTHENTICATOR.backupCodes, storeBackupCodes: "encrypted" },
  });
}

export function createAuth(given: AuthOptions) {
  // Messages to an address go out after the answer, which is the same for every address.
  const options: AuthOptions = {
    ...given,
    enqueueMail: queuedAfterAnswer(given.logger, "queueing a mail", given.enqueueMail),
    enqueueMessage: queuedAfterAnswer(given.logger, "queueing a phone message", given.enqueueMessage),
  };
  const authenticator = authenticatorPlugin();
  const [secondFactorAfterSignIn] = authenticator.hooks.after;
  if (!secondFactorAfterSignIn) throw new Error("the two-factor plugin has no sign-in hook");
  const auth = betterAuth({
    appName: "Palisade",
    logger: authLog(options.logger),
    baseURL: options.publicUrl,
    basePath: "/api/auth",
    secret: options.secret,
    trustedOrigins: options.trustedOrigins,
    // Codes are for signing in only; these would send or take codes for other purposes.
    disabledPaths: [
      "/email-otp/verify-email",
      "/email-otp/check-verification-otp",
      "/email-otp/request-password-reset",
      "/email-otp/reset-password",
      "/forget-password/email-otp",
      "/email-otp/request-email-change",
      "/email-otp/change-email",
      ...ssoDisabledPaths,
      ...membershipDisabledPaths,
    ],
    // Social sign-in (social-auth.ts) and single sign-on (sso-auth.ts).
    socialProviders: socialProviderOptions(options.socialSignIn),
    database: drizzleAdapter(options.db, { provider: "pg", schema: authSchema }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: options.passwordPolicy.minLength,
      maxPasswordLength: options.passwordPolicy.maxLength,
      ...accountPasswordOptions(options),
    },
    // Accounts (account-auth.ts): verification, password reset, sign-in history, cookies.
    emailVerification: emailVerificationOptions(options),
    // The reset link's token is the row's identifier: kept hashed, so the table holds no usable link.
    verification: { storeIdentifier: { default: "plain", overrides: { "reset-password:": "hashed" } } },
    hooks: { before: accountBeforeHook(options), after: accountAfterHook(options) },
    session: {
      // Sessions last a week and are extended once a day while in use.
      expiresIn: 60 * 60 * 24 * 7,
      updateAge: 60 * 60 * 24,
      cookieCache: { enabled: false },
    },
    databaseHooks: {
      // Codes sent to a phone are kept keyed, never as sent (phone-auth.ts).
      verification: { create: { before: phoneCodeAtRest(options.secret) } },
      session: {
        create: {
          // A new sign-in starts in the tenant the user chose last with the tenant switcher.
          async before(session) {
            if (session.activeOrganizationId) return;
            const tenantId = await findLastActiveTenant(options.db, session.userId);
            if (tenantId) return { data: { ...session, activeOrganizationId: tenantId } };
          },
        },
      },
    },
    advanced: {
      cookiePrefix: "palisade",
      ...sessionCookieOptions(options.publicUrl),
      cookies: ssoCookieOptions,
      database: { generateId: () => crypto.randomUUID() },
    },
    rateLimit: {
      enabled: true,
      // Counted in the database, so the limit holds across replicas.
      customStorage: {
        async consume(key, rule) {
          const verdict = await options.rateLimiter.count(`auth:${key}`, rule);
          return verdict.allowed
            ? { allowed: true, retryAfter: null }
            : { allowed: false, retryAfter: verdict.retryAfterSeconds };
        },
      },
      window: 60,
      max: 120,
      customRules: {
        "/sign-in/email": { window: 60, max: options.signInsPerMinute },
        "/sign-up/email": { window: 60, max: 5 },
        "/api-key/verify": false,
        // Per client address; the sign-in page also waits 30 s before it offers a new code.
        "/email-otp/send-verification-otp": { window: 60, max: 3 },
        // Five wrong codes end a code anyway; this bounds guessing across codes and addresses.
        "/sign-in/email-otp": { window: 60, max: options.signInsPerMinute },
        "/sign-in/magic-link": { window: 60, max: 3 },
        // Six-digit codes: a handful of tries a minute per client address.
        "/two-factor/verify-totp": { window: 60, max: 10 },
        "/two-factor/verify-backup-code": { window: 60, max: 10 },
        "/two-factor/enable": { window: 60, max: 10 },
        "/two-factor/disable": { window: 60, max: 10 },
        "/magic-link/verify": { window: 60, max: 10 },
        ...accountRateLimitRules,
        ...ssoRateLimitRules,
        ...socialRateLimitRules,
      },
    },
    plugins: [
      emailOTP({
        otpLength: SIGN_IN_CODE.length,
        expiresIn: SIGN_IN_CODE.validSeconds,
        allowedAttempts: SIGN_IN_CODE.allowedAttempts,
        storeOTP: "hashed",
        // Accounts come from invitations and the administrator, never from a code.
        disableSignUp: true,
        async sendVerificationOTP({ email, otp, type }) {
          if (type !== "sign-in") return;
          // Better Auth answers a code for an unverified account by deleting its password and
          // sessions; such an account gets no code (the answer is the same) and keeps them.
          const account = await findUserByEmail(options.db, email);
          if (!account?.emailVerified) {
            options.logger.info({ component: "auth" }, "sign-in code not sent: address not verified");
            return;
          }
          await options.enqueueMail({
            message: signInCodeMail({ to: email, code: otp, validMinutes: SIGN_IN_CODE.validSeconds / 60 }),
            link: `${options.publicUrl}/sign-in`,
          });
        },
      }),
      magicLink({
        expiresIn: SIGN_IN_LINK_VALID_SECONDS,
        storeToken: "hashed",
        // As with codes: accounts come from invitations and the administrator.
        disableSignUp: true,
        async sendMagicLink({ email, token, metadata }, ctx) {
          // Following a link promotes an unverified account by deleting its password and
          // sessions; such an account gets no link (the answer is the same) and keeps them.
          const account = await findUserByEmail(options.db, email);
          if (!account?.emailVerified || account.twoFactorEnabled) {
            options.logger.info(
              { component: "auth" },
              "sign-in link not sent: no verified account without MFA",
            );
            return;
          }
          // The link opens a page with a button, so a mail scanner that follows links spends nothing.
          const link = `${options.publicUrl}/sign-in-link?token=${encodeURIComponent(token)}`;
          // Only the server asks for a link by WhatsApp (whatsapp-link-auth.ts); a request's metadata is ignored.
          if (!ctx?.request && metadata?.channel === WHATSAPP_LINK_METADATA.channel) {
            await sendMagicLinkByWhatsApp(options, {
              account,
              link,
              validMinutes: SIGN_IN_LINK_VALID_SECONDS / 60,
            });
            return;
          }
          await options.enqueueMail({
            message: magicLinkMail({
              to: email,
              link,
              expiresAt: new Date(Date.now() + SIGN_IN_LINK_VALID_SECONDS * 1000),
            }),
            link,
          });
        },
      }),
      organization({
        ac,
        roles: {
          ADMINISTRATOR: administrator,
          EDITOR: noOrganizationRights,
          MODERATOR: noOrganizationRights,
          VIEWER: noOrganizationRights,
          VISITOR: noOrganizationRights,
          INTEGRATOR: noOrganizationRights,
        },
        creatorRole: "ADMINISTRATOR",
        // Tenants are created by the server (bootstrap) and administrators invite members.
        allowUserToCreateOrganization: false,
      }),
      authenticator,
      {
        // The e-mailed code and the enchanted link are first factors like the password: an
        // enrolled authenticator is asked next.
        id: "second-factor-after-code",
        hooks: {
          after: [
            {
              matcher: (context: { path?: string }) =>
                context.path === "/sign-in/email-otp" || context.path === "/enchanted-link/pending-session",
              handler: secondFactorAfterSignIn.handler,
            },
          ],
        },
      },
      bearer(),
      apiKey({
        references: "organization",
        defaultPrefix: API_KEY_PREFIX,
        enableMetadata: true,
        rateLimit: { enabled: false },
      }),
      ...passkeyPlugins(options),
      ...phonePlugins(options),
      enchantedLinkPlugin(options),
      whatsAppLinkPlugin({
        ...options,
        requestMagicLink: async (email): Promise<void> => {
          await auth.api.signInMagicLink({
            body: { email, metadata: WHATSAPP_LINK_METADATA },
            headers: new Headers(),
          });
        },
      }),
      accessKeyExchangePlugin({
        ...options,
        verifyApiKey: async (key): Promise<VerifiedApiKey> => auth.api.verifyApiKey({ body: { key } }),
      }),
      ...ssoPlugins(options),
      ...socialPlugins(options),
    ],
  });
  return auth;
}

export type Auth = ReturnType<typeof createAuth>;

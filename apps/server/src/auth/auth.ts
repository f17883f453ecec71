import { apiKey } from "@better-auth/api-key";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { bearer, emailOTP, organization } from "better-auth/plugins";
import { createAccessControl } from "better-auth/plugins/access";
import { defaultStatements } from "better-auth/plugins/organization/access";
import type { Database } from "../db/database";
import * as authSchema from "../db/schema/auth";
import type { SendMailPayload } from "../jobs/send-mail-job";
import type { Logger } from "../logger";
import { signInCodeMail } from "../mail/mail-templates";
import type { RateLimiter } from "../rpc/rate-limiter";
import {
  accountAfterHook,
  accountBeforeHook,
  accountPasswordOptions,
  accountRateLimitRules,
  emailVerificationOptions,
  sessionCookieOptions,
} from "./account-auth";
import { authLog } from "./credential-failure-log";
import {
  type SocialSignInConfig,
  socialPlugins,
  socialProviderOptions,
  socialRateLimitRules,
} from "./social-auth";
import { ssoCookieOptions, ssoDisabledPaths, ssoPlugins, ssoRateLimitRules } from "./sso-auth";
import { findLastActiveTenant, findUserByEmail } from "./user-repository";

/** Prefix of Palisade API keys; a bearer credential with it is an API key, not a session. */
export const API_KEY_PREFIX = "pal_";

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 128;

/** The e-mailed sign-in code: six digits, ten minutes, five wrong tries. */
export const SIGN_IN_CODE = { length: 6, validSeconds: 600, allowedAttempts: 5 } as const;

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
  /** ALLOW_SIGN_UP: open sign-up over HTTP (accounts verify their address first). */
  allowSignUp: boolean;
  /** The buckets shared by every replica on the database. */
  rateLimiter: RateLimiter;
  /** Social providers and the generic OpenID Connect provider turned on in the environment. */
  socialSignIn: SocialSignInConfig;
}

export function createAuth(options: AuthOptions) {
  return betterAuth({
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
    ],
    // Social sign-in (social-auth.ts) and single sign-on (sso-auth.ts).
    socialProviders: socialProviderOptions(options.socialSignIn),
    database: drizzleAdapter(options.db, { provider: "pg", schema: authSchema }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      ...accountPasswordOptions(options),
    },
    // Accounts (account-auth.ts): verification, password reset, sign-in history, cookies.
    emailVerification: emailVerificationOptions(options),
    hooks: { before: accountBeforeHook(options), after: accountAfterHook(options) },
    session: {
      // Sessions last a week and are extended once a day while in use.
      expiresIn: 60 * 60 * 24 * 7,
      updateAge: 60 * 60 * 24,
      cookieCache: { enabled: false },
    },
    databaseHooks: {
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
        "/sign-in/email": { window: 60, max: 10 },
        "/sign-up/email": { window: 60, max: 5 },
        "/api-key/verify": false,
        // Per client address; the sign-in page also waits 30 s before it offers a new code.
        "/email-otp/send-verification-otp": { window: 60, max: 3 },
        // Five wrong codes end a code anyway; this bounds guessing across codes and addresses.
        "/sign-in/email-otp": { window: 60, max: 10 },
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
      bearer(),
      apiKey({
        references: "organization",
        defaultPrefix: API_KEY_PREFIX,
        enableMetadata: true,
        rateLimit: { enabled: false },
      }),
      ...ssoPlugins(options),
      ...socialPlugins(options.socialSignIn),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;

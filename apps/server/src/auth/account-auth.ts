import { APIError, createAuthMiddleware } from "better-auth/api";
import * as z from "zod";
import type { Database } from "../db/database";
import type { SendMailPayload } from "../jobs/send-mail-job";
import type { Logger } from "../logger";
import { passwordResetMail, verifyAddressMail } from "../mail/mail-templates";
import { createRateLimiter } from "../rpc/rate-limiter";
import { type AuditAccountChange, auditAccountSecurityChange } from "./account-security-changes";
import { afterAnswer } from "./after-answer";
import { type PasswordPolicy, passwordProblem } from "./password-policy";
import { insertSignInEvent } from "./sign-in-history-repository";
import { recordSignIn, requestOrigin } from "./sign-in-recording";
import { findUserByEmail, markEmailVerified } from "./user-repository";

/**
 * Accounts: open sign-up with a verified address, the password reset flow, the session
 * cookie's attributes, the sign-in history and per-address limits. Each export is one block
 * of the Better Auth configuration in auth.ts.
 */
export interface AccountAuthOptions {
  db: Database;
  publicUrl: string;
  /** ALLOW_SIGN_UP: anyone may create a password account over HTTP. */
  allowSignUp: boolean;
  logger: Logger;
  enqueueMail: (payload: SendMailPayload) => Promise<unknown>;
  passwordPolicy: PasswordPolicy;
  /** Audits a change to how an account signs in, in each of its tenants (none in tests without it). */
  auditAccountChange?: AuditAccountChange;
}

export const MAX_EMAIL_LENGTH = 254;
export const MAX_NAME_LENGTH = 100;
/** How long a password reset link works. */
export const RESET_LINK_VALID_SECONDS = 60 * 60;
/** How long an address verification link works. */
export const VERIFY_LINK_VALID_SECONDS = 24 * 60 * 60;

/** The same rule as the invitation's: the spec's basic e-mail pattern, with bounded parts. */
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{1,63}$/;

export function isValidEmail(value: string): boolean {
  return value.length <= MAX_EMAIL_LENGTH && EMAIL.test(value);
}

/** The body of Palisade's own endpoints that send a link to an address (checked further by the before hook). */
export const emailRequestBody = z.object({
  email: z
    .string({ error: '"email" must be a string' })
    .max(MAX_EMAIL_LENGTH, `"email" must not exceed ${MAX_EMAIL_LENGTH} characters`),
});

/** Password accounts: verified before they sign in, and reset by a link sent to the address. */
export function accountPasswordOptions(options: AccountAuthOptions) {
  return {
    requireEmailVerification: true,
    resetPasswordTokenExpiresIn: RESET_LINK_VALID_SECONDS,
    // A reset ends every session: whoever knew the old password is signed out.
    revokeSessionsOnPasswordReset: true,
    async sendResetPassword({ user, token }: { user: { email: string }; token: string }) {
      const link = `${options.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
      await options.enqueueMail({
        message: passwordResetMail({
          to: user.email,
          link,
          expiresAt: new Date(Date.now() + RESET_LINK_VALID_SECONDS * 1000),
        }),
        link,
      });
    },
    // The link reached the address, which proves it as a verification link would.
    async onPasswordReset({ user }: { user: { id: string; emailVerified: boolean } }) {
      if (!user.emailVerified) await markEmailVerified(options.db, user.id);
    },
  };
}

/** Where the confirmation link lands, whatever page asked for it: the page that says so. */
export const EMAIL_CONFIRMED_PATH = "/email-confirmed";

/** The confirmation link with the landing page as its callback (an error code is appended on failure). */
export function confirmationLink(url: string): string {
  const link = new URL(url);
  link.searchParams.set("callbackURL", EMAIL_CONFIRMED_PATH);
  return link.toString();
}

/** The verification e-mail of a new password account; its link signs the account in. */
export function emailVerificationOptions(options: AccountAuthOptions) {
  // At most a few verification messages per address, whatever asks for them.
  const perAddress = createRateLimiter(options.db, { burst: 3, perSecond: 1 / 300 }, "auth.verify-mail");
  return {
    sendOnSignUp: true,
    sendOnSignIn: true,
    autoSignInAfterVerification: true,
    expiresIn: VERIFY_LINK_VALID_SECONDS,
    async sendVerificationEmail(
      { user, url: requestedUrl }: { user: { email: string }; url: string },
      request?: Request,
    ) {
      // Accounts the server makes itself (bootstrap, tests) are verified by it, not by mail.
      if (!request) return;
      if (!(await perAddress.take(user.email.toLowerCase())).allowed) {
        options.logger.info({ component: "auth" }, "verification e-mail not sent: too many for this address");
        return;
      }
      const url = confirmationLink(requestedUrl);
      await options.enqueueMail({
        message: verifyAddressMail({
          to: user.email,
          link: url,
          expiresAt: new Date(Date.now() + VERIFY_LINK_VALID_SECONDS * 1000),
        }),
        link: url,
      });
    },
  };
}

/**
 * The session cookie is SameSite=Strict (spec section 9) and Secure when Palisade is served
 * over https. No OAuth or SSO redirect is configured, so no cookie needs to stay Lax.
 */
export function sessionCookieOptions(publicUrl: string) {
  const secure = publicUrl.startsWith("https://");
  return {
    useSecureCookies: secure,
    defaultCookieAttributes: { sameSite: "strict" as const, secure, httpOnly: true },
  };
}

/** Per client address, on top of the limits per address of the e-mail in the before hook. */
export const accountRateLimitRules = {
  "/request-password-reset": { window: 60, max: 5 },
  "/reset-password": { window: 60, max: 10 },
  "/send-verification-email": { window: 60, max: 3 },
  "/change-password": { window: 60, max: 10 },
};

/** What each sign-in path records as its method. */
const SIGN_IN_METHODS: Record<string, string> = {
  "/sign-in/email": "password",
  "/sign-in/email-otp": "email-otp",
  "/two-factor/verify-totp": "authenticator",
  "/two-factor/verify-backup-code": "backup-code",
  "/magic-link/verify": "magic-link",
  "/enchanted-link/pending-session": "enchanted-link",
  "/verify-email": "email-verification",
};

/** Paths that e-mail an address, and how many messages an address may be sent. */
const MAILING_PATHS: Record<string, { burst: number; perSecond: number }> = {
  // Three reset links, then one every five minutes.
  "/request-password-reset": { burst: 3, perSecond: 1 / 300 },
  // Five codes, then one every 30 s (the sign-in page offers a new code after 30 s).
  "/email-otp/send-verification-otp": { burst: 5, perSecond: 1 / 30 },
  // The same for sign-in links.
  "/sign-in/magic-link": { burst: 5, perSecond: 1 / 30 },
  "/enchanted-link/send": { burst: 5, perSecond: 1 / 30 },
  // A WhatsApp message costs money: three links, then one a minute.
  "/whatsapp-link/send": { burst: 3, perSecond: 1 / 60 },
};

/** The identity layer's paths (under /api/auth) that take an address. */
export const EMAIL_PATHS = new Set([
  "/sign-up/email",
  "/sign-in/email",
  "/sign-in/email-otp",
  "/request-password-reset",
  "/email-otp/send-verification-otp",
  "/send-verification-email",
  "/sign-in/magic-link",
  "/enchanted-link/send",
  "/whatsapp-link/send",
]);

/** The field of each path that sets a new password. */
const PASSWORD_FIELDS: Record<string, string> = {
  "/sign-up/email": "password",
  "/reset-password": "newPassword",
  "/change-password": "newPassword",
};

function badRequest(message: string, code: string) {
  return new APIError("BAD_REQUEST", { message, code });
}

function bodyOf(ctx: { body?: unknown }): Record<string, unknown> {
  return ctx.body && typeof ctx.body === "object" ? (ctx.body as Record<string, unknown>) : {};
}

/** Bounded, validated input; sign-up only when allowed; limits per e-mail address. */
export function accountBeforeHook(options: AccountAuthOptions) {
  const limiters = new Map(
    Object.entries(MAILING_PATHS).map(
      ([path, rate]) => [path, createRateLimiter(options.db, rate, `auth${path}`)] as const,
    ),
  );
  return createAuthMiddleware(async (ctx) => {
    const path = ctx.path ?? "";
    const body = bodyOf(ctx);
    // Accounts made by the server itself (bootstrap, invitations) come without a request.
    if (path === "/sign-up/email" && ctx.request && !options.allowSignUp) {
      throw new APIError("FORBIDDEN", {
        message: "Sign-up is turned off. Ask an administrator of your organisation to invite you.",
        code: "SIGN_UP_DISABLED",
      });
    }
    if (EMAIL_PATHS.has(path) && typeof body.email === "string") {
      if (!isValidEmail(body.email.trim())) {
        throw badRequest(`"${body.email.slice(0, MAX_EMAIL_LENGTH)}" is not a valid email`, "INVALID_EMAIL");
      }
    }
    if ((path === "/sign-up/email" || path === "/update-user") && "name" in body) {
      const name = typeof body.name === "string" ? body.name.trim() : "";
      if (!name) throw badRequest('"name" must not be empty', "INVALID_NAME");
      if (name.length > MAX_NAME_LENGTH)
        throw badRequest(`Name must not exceed ${MAX_NAME_LENGTH} characters`, "INVALID_NAME");
    }
    // Every way of setting a password over HTTP follows the policy; the message names the rule.
    // The administrator's account made at first start (bootstrap) is the operator's choice.
    const newPassword = PASSWORD_FIELDS[path];
    if (newPassword && ctx.request && typeof body[newPassword] === "string") {
      const problem = passwordProblem(options.passwordPolicy, body[newPassword]);
      if (problem) throw badRequest(problem, "PASSWORD_POLICY");
    }
    const limiter = limiters.get(path);
    if (limiter && typeof body.email === "string") {
      const verdict = await limiter.take(body.email.trim().toLowerCase());
      if (!verdict.allowed) {
        const seconds = verdict.retryAfterSeconds;
        throw new APIError(
          "TOO_MANY_REQUESTS",
          {
            message: `Too many requests for this address. Try again in ${seconds} seconds.`,
            code: "TOO_MANY_REQUESTS",
          },
          { "X-Retry-After": String(seconds), "Retry-After": String(seconds) },
        );
      }
    }
  });
}

/** Records every sign-in of a known account, successful or refused, in its history. */
export function accountAfterHook(options: AccountAuthOptions) {
  return createAuthMiddleware(async (ctx) => {
    await auditAccountSecurityChange(options, ctx, !(ctx.context.returned instanceof APIError));
    const method = SIGN_IN_METHODS[ctx.path ?? ""];
    if (!method) return;
    if (ctx.context.newSession) return recordSignIn(options, ctx, method);
    const returned = ctx.context.returned;
    if (!(returned instanceof APIError)) return;
    const email = bodyOf(ctx).email;
    if (typeof email !== "string" || !isValidEmail(email.trim())) return;
    const reason = String((returned.body as { code?: unknown } | undefined)?.code ?? returned.status);
    const origin = requestOrigin(ctx);
    // Written after the refusal is answered, which then takes as long for an address without an
    // account (after-answer.ts); the history must never stop a sign-in, so a failure is only logged.
    afterAnswer(options.logger, "recording a refused sign-in", async () => {
      const account = await findUserByEmail(options.db, email.trim());
      if (!account) return;
      await insertSignInEvent(options.db, {
        userId: account.id,
        method,
        success: false,
        failureReason: reason,
        ...origin,
      });
    });
  });
}

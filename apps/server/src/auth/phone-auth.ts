import { createHmac } from "node:crypto";
import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import { phoneNumber } from "better-auth/plugins";
import { and, eq } from "drizzle-orm";
import type { Database } from "../db/database";
import type { SendMessagePayload } from "../jobs/send-message-job";
import type { Logger } from "../logger";
import { MESSAGE_CHANNELS, type MessageChannel } from "../messaging/message-gateway";
import { createRateLimiter } from "../rpc/rate-limiter";
import { user } from "./auth-schema";
import { recordSignIn } from "./sign-in-recording";

/**
 * Phone one-time codes: a signed-in user adds a number on /account by confirming a code sent
 * to it; from then on a code sent to that number (by SMS, a voice call or WhatsApp) signs them
 * in. A code never creates an account, and a number no account holds gets no message.
 */
export interface PhoneAuthOptions {
  db: Database;
  logger: Logger;
  /** Queues a phone message for durable delivery (the message job). */
  enqueueMessage: (payload: SendMessagePayload) => Promise<unknown>;
  /** The instance key: codes are kept keyed with it (phoneCodeAtRest). */
  secret: string;
}

/** Six digits, ten minutes, five wrong tries: as the e-mailed code. */
export const PHONE_CODE = { length: 6, validSeconds: 600, allowedAttempts: 5 } as const;

/** The spec's rule: `+` and 4 to 15 digits. */
const PHONE = /^\+\d{4,15}$/;
const MAX_PHONE_INPUT = 32;

export function isValidPhoneNumber(value: string): boolean {
  return PHONE.test(value);
}

/** The text of each channel; a voice call reads the digits one by one. */
export function phoneCodeText(channel: MessageChannel, code: string): string {
  const minutes = PHONE_CODE.validSeconds / 60;
  if (channel === "voice")
    return `Your Palisade sign-in code is ${code.split("").join(", ")}. Again: ${code.split("").join(", ")}.`;
  return `${code} is your Palisade sign-in code. It works for ${minutes} minutes. Do not share it.`;
}

/** Better Auth's verification row of a code sent to a number: `phone-number-otp-<number>`, value `<code>:<attempts>`. */
const CODE_RECORD_PREFIX = "phone-number-otp-";
const PLAIN_CODE = new RegExp(`^\\d{${PHONE_CODE.length}}$`);

/**
 * What the verification row keeps instead of the code, and what a code given back is turned into
 * before Better Auth compares the two: an HMAC under the instance key. A plain hash would not do:
 * a million six-digit codes are tried offline in a moment.
 */
function codeDigest(secret: string, code: string): string {
  return createHmac("sha256", secret).update(`palisade/phone-code/v1:${code}`).digest("base64url");
}

/** The database hook that keeps a phone code's row keyed (a row already keyed is left alone). */
export function phoneCodeAtRest(secret: string) {
  return async <T extends { identifier: string; value: string }>(row: T) => {
    if (!row.identifier.startsWith(CODE_RECORD_PREFIX)) return;
    const [code = "", ...rest] = row.value.split(":");
    if (!PLAIN_CODE.test(code)) return;
    return { data: { ...row, value: [codeDigest(secret, code), ...rest].join(":") } };
  };
}

const PHONE_PATHS = new Set(["/phone-number/send-otp", "/phone-number/verify"]);
// Password sign-in and password reset by phone are not offered: a phone number signs in by code only.
const CLOSED_PATHS = new Set([
  "/sign-in/phone-number",
  "/phone-number/request-password-reset",
  "/phone-number/reset-password",
]);

function badRequest(message: string, code: string) {
  return new APIError("BAD_REQUEST", { message, code });
}

function channelOf(query: unknown): MessageChannel {
  const raw = (query as { channel?: unknown } | undefined)?.channel;
  return MESSAGE_CHANNELS.includes(raw as MessageChannel) ? (raw as MessageChannel) : "sms";
}

/** Validation, the closed paths, limits per number and the sign-in history of phone codes. */
function phoneRules(options: PhoneAuthOptions): BetterAuthPlugin {
  // Three codes to a number, then one a minute: each is a message someone pays for.
  const perNumber = createRateLimiter(options.db, { burst: 3, perSecond: 1 / 60 }, "auth.phone-code");
  return {
    id: "palisade-phone-rules",
    rateLimit: [
      { pathMatcher: (path) => path === "/phone-number/send-otp", window: 60, max: 3 },
      { pathMatcher: (path) => path === "/phone-number/verify", window: 60, max: 10 },
    ],
    hooks: {
      before: [
        {
          matcher: (ctx) => CLOSED_PATHS.has(ctx.path ?? ""),
          handler: createAuthMiddleware(async () => {
            throw new APIError("NOT_FOUND", { message: "Not found", code: "NOT_FOUND" });
          }),
        },
        {
          matcher: (ctx) => PHONE_PATHS.has(ctx.path ?? ""),
          handler: createAuthMiddleware(async (ctx) => {
            const body = (ctx.body ?? {}) as { phoneNumber?: unknown };
            if (typeof body.phoneNumber !== "string")
              throw badRequest('"phoneNumber" must be a string', "INVALID_PHONE_NUMBER");
            if (!isValidPhoneNumber(body.phoneNumber))
              throw badRequest(
                `"${body.phoneNumber.slice(0, MAX_PHONE_INPUT)}" is not a valid phone number`,
                "INVALID_PHONE_NUMBER",
              );
            const channel = (ctx.query as { channel?: unknown } | undefined)?.channel;
            if (channel !== undefined && !MESSAGE_CHANNELS.includes(channel as MessageChannel))
              throw badRequest('"channel" must be one of sms, voice, whatsapp', "INVALID_CHANNEL");
            // A code signs in only the account holding the number; it never makes one.
            const updating = (ctx.body as { updatePhoneNumber?: unknown }).updatePhoneNumber === true;
            if (
              ctx.path === "/phone-number/verify" &&
              !updating &&
              !(await numberSignsIn(options.db, body.phoneNumber))
            )
              throw badRequest("Invalid OTP", "INVALID_OTP");
            const given = (ctx.body as { code?: unknown }).code;
            if (ctx.path === "/phone-number/verify" && typeof given === "string") {
              // Compared with the keyed form the row holds (phoneCodeAtRest).
              return { context: { body: { ...ctx.body, code: codeDigest(options.secret, given) } } };
            }
            if (ctx.path === "/phone-number/send-otp") {
              const verdict = await perNumber.take(body.phoneNumber);
              if (!verdict.allowed) {
                const seconds = verdict.retryAfterSeconds;
                throw new APIError(
                  "TOO_MANY_REQUESTS",
                  {
                    message: `Too many codes for this number. Try again in ${seconds} seconds.`,
                    code: "TOO_MANY_REQUESTS",
                  },
                  { "X-Retry-After": String(seconds), "Retry-After": String(seconds) },
                );
              }
            }
          }),
        },
      ],
      after: [
        {
          matcher: (ctx) => ctx.path === "/phone-number/verify",
          handler: createAuthMiddleware(async (ctx) => {
            if ((ctx.body as { updatePhoneNumber?: unknown })?.updatePhoneNumber) return;
            await recordSignIn(options, ctx, "phone-otp");
          }),
        },
      ],
    },
  };
}

/**
 * The number is confirmed by an account that may sign in with it: one with an authenticator app
 * signs in with its password and the app instead, as a code alone would skip the second factor.
 */
async function numberSignsIn(db: Database, number: string): Promise<boolean> {
  const [row] = await db
    .select({ id: user.id })
    .from(user)
    .where(
      and(eq(user.phoneNumber, number), eq(user.phoneNumberVerified, true), eq(user.twoFactorEnabled, false)),
    )
    .limit(1);
  return !!row;
}

/** The Better Auth plugins of phone codes, spread into the configuration's plugins. */
export function phonePlugins(options: PhoneAuthOptions) {
  // The rules come first: Better Auth takes the first plugin's limit that matches a path.
  return [
    phoneRules(options),
    phoneNumber({
      otpLength: PHONE_CODE.length,
      expiresIn: PHONE_CODE.validSeconds,
      allowedAttempts: PHONE_CODE.allowedAttempts,
      phoneNumberValidator: isValidPhoneNumber,
      async sendOTP({ phoneNumber: to, code }, ctx) {
        // A signed-in user adds a number; anyone else gets a code only for a number an account holds.
        const signedIn = ctx ? await getSessionFromCtx(ctx).catch(() => null) : null;
        if (!signedIn && !(await numberSignsIn(options.db, to))) {
          options.logger.info(
            { component: "auth" },
            "phone code not sent: no account without an authenticator app holds the number",
          );
          return;
        }
        const channel = channelOf(ctx?.query);
        await options.enqueueMessage({ message: { channel, to, text: phoneCodeText(channel, code), code } });
      },
    }),
  ] as const;
}

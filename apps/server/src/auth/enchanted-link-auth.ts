import { createHash, randomBytes, randomInt } from "node:crypto";
import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthEndpoint } from "better-auth/api";
import { setSessionCookie } from "better-auth/cookies";
import * as z from "zod";
import type { Database } from "../db/database";
import type { SendMailPayload } from "../jobs/send-mail-job";
import type { Logger } from "../logger";
import { enchantedLinkMail } from "../mail/mail-templates";
import { emailRequestBody } from "./account-auth";
import { afterAnswer } from "./after-answer";
import { findUserByEmail } from "./user-repository";

/**
 * The enchanted link: the sign-in page asks for it and shows a number; the e-mail holds three
 * links, each with a number. Opening the one with the shown number signs in the page that
 * asked (it polls its pending sign-in), not the browser that opened the link. Any other link
 * ends the request, so guessing gains nothing. The page holds the request's secret (the
 * pending reference), which is never in the mail: a reader of the mail cannot take the session
 * to another browser.
 */
export interface EnchantedLinkOptions {
  db: Database;
  publicUrl: string;
  logger: Logger;
  enqueueMail: (payload: SendMailPayload) => Promise<unknown>;
}

/** Ten minutes for the links and the page waiting for them; three links to choose from. */
export const ENCHANTED_LINK = { validSeconds: 600, choices: 3 } as const;

/** Where the e-mailed links open: a page whose button confirms the choice. */
export const ENCHANTED_LINK_PATH = "/enchanted-link";

const MAX_TOKEN_LENGTH = 128;

/** A secret of the request (a link's token, the page's reference), bounded. */
function secretField(name: string) {
  return z
    .string({ error: `"${name}" must be a string` })
    .max(MAX_TOKEN_LENGTH, `"${name}" must not exceed ${MAX_TOKEN_LENGTH} characters`);
}

/** Records kept in Better Auth's verification table, each under the hash of its secret. */
const RECORD = {
  /** The page's request: the address and the number the page shows. */
  pending: "enchanted-link-pending:",
  /** One e-mailed link: its request and its number. */
  link: "enchanted-link:",
  /** The right link was opened: the page may take its session. */
  confirmed: "enchanted-link-confirmed:",
  /** Another link was opened: the page is told nothing was signed in. */
  refused: "enchanted-link-refused:",
} as const;

/** What the waiting page learns each time it asks. */
export type PendingSignInStatus = "waiting" | "signed-in" | "refused" | "expired";

function hashOf(secret: string): string {
  return createHash("sha256").update(secret).digest("base64url");
}

function newSecret(): string {
  return randomBytes(32).toString("base64url");
}

/** Distinct two-digit numbers, in ascending order, so their place in the mail tells nothing. */
function linkNumbers(): number[] {
  const numbers = new Set<number>();
  while (numbers.size < ENCHANTED_LINK.choices) numbers.add(randomInt(10, 100));
  return [...numbers].sort((a, b) => a - b);
}

function linkNoLongerWorks() {
  return new APIError("BAD_REQUEST", {
    message: "This link no longer works: it was used, has expired or was replaced. Ask for a new one.",
    code: "INVALID_TOKEN",
  });
}

const pendingRecordSchema = z.object({ email: z.string(), number: z.number() });
const linkRecordSchema = z.object({ request: z.string(), number: z.number() });

function parse<T>(schema: z.ZodType<T>, value: string): T | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(value));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function enchantedLinkPlugin(options: EnchantedLinkOptions): BetterAuthPlugin {
  return {
    id: "palisade-enchanted-link",
    endpoints: {
      sendEnchantedLink: createAuthEndpoint(
        "/enchanted-link/send",
        {
          method: "POST",
          body: emailRequestBody,
        },
        async (ctx) => {
          const email = ctx.body.email.trim().toLowerCase();
          const pendingRef = newSecret();
          const request = hashOf(pendingRef);
          const numbers = linkNumbers();
          const shown = numbers[randomInt(numbers.length)] ?? 0;
          const expiresAt = new Date(Date.now() + ENCHANTED_LINK.validSeconds * 1000);
          const { internalAdapter } = ctx.context;
          // Every address gets a request and a number: the answer tells nothing about accounts.
          await internalAdapter.createVerificationValue({
            identifier: RECORD.pending + request,
            value: JSON.stringify({ email, number: shown }),
            expiresAt,
          });
          // As with the other links: only a verified account is sent anything, and none is made.
          // Its links are written after the answer, so the answer takes as long for any address.
          afterAnswer(options.logger, "sending an enchanted link", async () => {
            const account = await findUserByEmail(options.db, email);
            if (!account?.emailVerified) {
              options.logger.info({ component: "auth" }, "enchanted link not sent: address not verified");
              return;
            }
            const choices = [];
            for (const number of numbers) {
              const token = newSecret();
              await internalAdapter.createVerificationValue({
                identifier: RECORD.link + hashOf(token),
                value: JSON.stringify({ request, number }),
                expiresAt,
              });
              choices.push({
                number,
                link: `${options.publicUrl}${ENCHANTED_LINK_PATH}?token=${encodeURIComponent(token)}`,
              });
            }
            await options.enqueueMail({
              message: enchantedLinkMail({ to: email, choices, expiresAt }),
              link: `${options.publicUrl}/`,
            });
          });
          return ctx.json({ pendingRef, number: shown, expiresAt: expiresAt.toISOString() });
        },
      ),
      verifyEnchantedLink: createAuthEndpoint(
        "/enchanted-link/verify",
        {
          method: "POST",
          body: z.object({
            token: secretField("token"),
          }),
        },
        async (ctx) => {
          const { internalAdapter } = ctx.context;
          const link = await internalAdapter.consumeVerificationValue(RECORD.link + hashOf(ctx.body.token));
          const chosen = link && parse(linkRecordSchema, link.value);
          if (!chosen) throw linkNoLongerWorks();
          // The first link opened ends the request, whichever it is.
          const pending = await internalAdapter.consumeVerificationValue(RECORD.pending + chosen.request);
          const asked = pending && parse(pendingRecordSchema, pending.value);
          if (!pending || !asked) throw linkNoLongerWorks();
          const right = chosen.number === asked.number;
          await internalAdapter.createVerificationValue({
            identifier: (right ? RECORD.confirmed : RECORD.refused) + chosen.request,
            value: JSON.stringify({ email: asked.email }),
            expiresAt: pending.expiresAt,
          });
          if (!right) {
            options.logger.info({ component: "auth" }, "enchanted link refused: another number was chosen");
            throw new APIError("BAD_REQUEST", {
              message: "That was not the number shown. Nothing was signed in; ask for a new link.",
              code: "WRONG_NUMBER",
            });
          }
          return ctx.json({ status: "confirmed" as const });
        },
      ),
      enchantedLinkPendingSession: createAuthEndpoint(
        "/enchanted-link/pending-session",
        {
          method: "POST",
          body: z.object({
            pendingRef: secretField("pendingRef"),
          }),
        },
        async (ctx) => {
          const { internalAdapter } = ctx.context;
          const request = hashOf(ctx.body.pendingRef);
          const answer = (status: PendingSignInStatus) => ctx.json({ status });
          const confirmed = await internalAdapter.consumeVerificationValue(RECORD.confirmed + request);
          if (confirmed) {
            const email = parse(pendingRecordSchema.pick({ email: true }), confirmed.value)?.email;
            const user = email ? (await internalAdapter.findUserByEmail(email))?.user : undefined;
            if (!user?.emailVerified) return answer("expired");
            const session = await internalAdapter.createSession(user.id);
            // An account with an authenticator app is asked for its code next (auth.ts).
            await setSessionCookie(ctx, { session, user });
            return ctx.json({ status: "signed-in" as const, user: { email: user.email, name: user.name } });
          }
          if (await internalAdapter.consumeVerificationValue(RECORD.refused + request))
            return answer("refused");
          const pending = await internalAdapter.findVerificationValue(RECORD.pending + request);
          return answer(pending && pending.expiresAt > new Date() ? "waiting" : "expired");
        },
      ),
    },
    rateLimit: [
      // Per client address; the address itself is limited in account-auth.ts.
      { pathMatcher: (path) => path === "/enchanted-link/send", window: 60, max: 3 },
      { pathMatcher: (path) => path === "/enchanted-link/verify", window: 60, max: 10 },
      // The page asks once a second while it waits.
      { pathMatcher: (path) => path === "/enchanted-link/pending-session", window: 60, max: 180 },
    ],
  };
}

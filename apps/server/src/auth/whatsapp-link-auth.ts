import type { BetterAuthPlugin } from "better-auth";
import { createAuthEndpoint } from "better-auth/api";
import type { Database } from "../db/database";
import type { SendMessagePayload } from "../jobs/send-message-job";
import type { Logger } from "../logger";
import { emailRequestBody } from "./account-auth";
import { afterAnswer } from "./after-answer";
import { findUserByEmail, type UserRow } from "./user-repository";

/**
 * The sign-in link by WhatsApp: the magic link (its token, its page, its ten minutes and single
 * use) delivered through the message gateway to the account's confirmed phone number instead of
 * by e-mail. The sign-in page asks for it with the e-mail address; the answer is the same whether
 * or not the address has an account with a number.
 */
export interface WhatsAppLinkOptions {
  db: Database;
  logger: Logger;
  enqueueMessage: (payload: SendMessagePayload) => Promise<unknown>;
  /** Asks the magic link for this address with the WhatsApp metadata (auth.ts). */
  requestMagicLink: (email: string) => Promise<unknown>;
}

/** The magic link's metadata that sends it by WhatsApp; only the server itself passes it. */
export const WHATSAPP_LINK_METADATA = { channel: "whatsapp" } as const;

/**
 * The account's number a link may go to: confirmed, and not of an account with an
 * authenticator app (the browser that opens the link cannot be asked for the second factor).
 */
export function whatsAppNumberOf(account: UserRow | undefined): string | undefined {
  if (!account?.emailVerified || account.twoFactorEnabled || !account.phoneNumberVerified) return undefined;
  return account.phoneNumber ?? undefined;
}

export function whatsAppLinkText(link: string, validMinutes: number): string {
  return `Sign in to Palisade with this link: ${link}\nIt works once, for ${validMinutes} minutes. If you did not ask for it, ignore this message.`;
}

/** Sends a magic link to the account's confirmed number. */
export async function sendMagicLinkByWhatsApp(
  options: Pick<WhatsAppLinkOptions, "enqueueMessage">,
  input: { account: UserRow; link: string; validMinutes: number },
): Promise<void> {
  const to = whatsAppNumberOf(input.account);
  if (!to) return;
  await options.enqueueMessage({
    message: {
      channel: "whatsapp",
      to,
      text: whatsAppLinkText(input.link, input.validMinutes),
      link: input.link,
    },
  });
}

export function whatsAppLinkPlugin(options: WhatsAppLinkOptions): BetterAuthPlugin {
  return {
    id: "palisade-whatsapp-link",
    endpoints: {
      sendWhatsAppLink: createAuthEndpoint(
        "/whatsapp-link/send",
        {
          method: "POST",
          body: emailRequestBody,
        },
        async (ctx) => {
          const email = ctx.body.email.trim().toLowerCase();
          // After the answer, which is the same for every address and so takes as long.
          afterAnswer(options.logger, "sending a WhatsApp link", async () => {
            if (!whatsAppNumberOf(await findUserByEmail(options.db, email))) {
              options.logger.info(
                { component: "auth" },
                "WhatsApp link not sent: no verified account without MFA with a confirmed number",
              );
              return;
            }
            try {
              await options.requestMagicLink(email);
            } catch (error) {
              // The e-mailed links' own limit for the address, shared with these.
              options.logger.info(
                { component: "auth", err: (error as Error).message },
                "WhatsApp link not sent",
              );
            }
          });
          return ctx.json({ status: true });
        },
      ),
    },
    // Per client address; the address itself is limited in account-auth.ts.
    rateLimit: [{ pathMatcher: (path) => path === "/whatsapp-link/send", window: 60, max: 3 }],
  };
}

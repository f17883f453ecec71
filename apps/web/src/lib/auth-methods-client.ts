import { passkeyClient } from "@better-auth/passkey/client";
import { createAuthClient } from "better-auth/client";
import { magicLinkClient, phoneNumberClient, twoFactorClient } from "better-auth/client/plugins";

/**
 * The sign-in methods beyond the password and the e-mailed code: sign-in links (magic link,
 * enchanted link, link by WhatsApp), the authenticator app, passkeys and phone codes. Only the
 * sign-in and account pages load it, so every other page's first load stays within its budget;
 * sessions are the same cookies as `authClient`'s.
 */
export const authMethodsClient = createAuthClient({
  // The sign-in page shows the second-factor step itself when a sign-in answers twoFactorRedirect.
  plugins: [magicLinkClient(), twoFactorClient(), passkeyClient(), phoneNumberClient()],
});

/** Options of a call, such as `retryAfterCapture().fetchOptions`. */
type CallOptions = { onError?: (context: { response: Response }) => void };
/** What a refusal of Palisade's auth endpoints carries besides its status. */
type RefusalBody = { code?: string; message?: string };

/** The enchanted link's request as the page that asked holds it; `pendingRef` stays in this page. */
export interface EnchantedLinkRequest {
  pendingRef: string;
  /** The number to choose in the e-mail. */
  number: number;
  expiresAt: string;
}

/** What the page waiting for the enchanted link learns when it asks. */
export type EnchantedLinkPendingSession =
  | { status: "waiting" | "refused" | "expired" }
  | { status: "signed-in"; user: { email: string; name: string } }
  /** An account with an authenticator app: its code is asked next. */
  | { twoFactorRedirect: true };

/** Palisade's own link endpoints: the enchanted link and the sign-in link by WhatsApp. */
export const linkSignIn = {
  sendEnchantedLink: (email: string, options: CallOptions = {}) =>
    authMethodsClient.$fetch<EnchantedLinkRequest, RefusalBody>("/enchanted-link/send", {
      method: "POST",
      body: { email },
      ...options,
    }),
  verifyEnchantedLink: (token: string) =>
    authMethodsClient.$fetch<{ status: "confirmed" }, RefusalBody>("/enchanted-link/verify", {
      method: "POST",
      body: { token },
    }),
  enchantedLinkPendingSession: (pendingRef: string) =>
    authMethodsClient.$fetch<EnchantedLinkPendingSession, RefusalBody>("/enchanted-link/pending-session", {
      method: "POST",
      body: { pendingRef },
    }),
  sendWhatsAppLink: (email: string, options: CallOptions = {}) =>
    authMethodsClient.$fetch<{ status: boolean }, RefusalBody>("/whatsapp-link/send", {
      method: "POST",
      body: { email },
      ...options,
    }),
};

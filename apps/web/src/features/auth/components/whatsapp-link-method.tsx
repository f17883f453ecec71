import { linkSignIn } from "@/lib/auth-methods-client";
import { SendLinkPanel } from "./send-link-panel";
import type { SignInMethodProps } from "./sign-in-methods";

/**
 * Sends the one-time sign-in link by WhatsApp to the account's confirmed phone number (added on
 * /account); the link opens the same page as an e-mailed one.
 */
export function WhatsAppLinkMethod({ email, chosen }: SignInMethodProps) {
  return (
    <SendLinkPanel
      chosen={chosen}
      send={(options) => linkSignIn.sendWhatsAppLink(email, options)}
      description="We send a sign-in link by WhatsApp to the phone number confirmed on your account."
      sentText={`If ${email} has a Palisade account with a confirmed phone number, a sign-in link is on its way by WhatsApp. Open it within 10 minutes; it works once.`}
      sendLabel="Send a sign-in link by WhatsApp"
    />
  );
}

import { authMethodsClient } from "@/lib/auth-methods-client";
import { SendLinkPanel } from "./send-link-panel";
import type { SignInMethodProps } from "./sign-in-methods";

/** Sends a one-time link; the link opens a page that signs in whichever browser follows it. */
export function MagicLinkMethod({ email, chosen }: SignInMethodProps) {
  return (
    <SendLinkPanel
      chosen={chosen}
      send={(fetchOptions) => authMethodsClient.signIn.magicLink({ email, fetchOptions })}
      description="We e-mail you a link that signs you in; no password needed."
      sentText={`If ${email} has a Palisade account, a sign-in link is on its way. Open it within 10 minutes; it works once.`}
      sendLabel="E-mail me a sign-in link"
    />
  );
}

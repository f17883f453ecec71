import type { ComponentType } from "react";
import { EmailCodeMethod } from "./email-code-method";
import { EnchantedLinkMethod } from "./enchanted-link-method";
import { MagicLinkMethod } from "./magic-link-method";
import { PasskeySignIn } from "./passkey-sign-in";
import { PasswordMethod } from "./password-method";
import { PhoneSignIn } from "./phone-sign-in";
import { WhatsAppLinkMethod } from "./whatsapp-link-method";

/** Who signed in, as the sign-in page remembers them. */
export interface SignedInUser {
  email: string;
  name: string;
}

/** What the sign-in page gives the panel of a method once the address is known. */
export interface SignInMethodProps {
  email: string;
  /** True when the person chose this method just now (a code or link may be sent at once). */
  chosen: boolean;
  redirectPath: string | undefined;
  /** Call once a session exists: remembers the login and leaves the sign-in page. */
  onSignedIn: (user: SignedInUser, method: string) => Promise<void>;
}

/** One way to sign in with a known address: its button on the method step and its panel. */
export interface SignInMethod {
  /** Stored as the last method of this browser; also the id of the sign-in history. */
  id: string;
  /** The button that switches to this method, e.g. "E-mail me a code". */
  label: string;
  Panel: ComponentType<SignInMethodProps>;
}

/** What the sign-in page offers before any address is typed (e.g. a discoverable passkey). */
export interface IdentifierStepProps {
  redirectPath: string | undefined;
  onSignedIn: (user: SignedInUser, method: string) => Promise<void>;
}

/**
 * The methods for an e-mail address, in the order they are offered; the method used last on
 * this browser moves to the front. A new method adds its entry here.
 */
export const addressMethods: SignInMethod[] = [
  { id: "password", label: "Sign in with a password", Panel: PasswordMethod },
  { id: "email-otp", label: "E-mail me a code", Panel: EmailCodeMethod },
  { id: "magic-link", label: "E-mail me a sign-in link", Panel: MagicLinkMethod },
  { id: "enchanted-link", label: "Send me a link to confirm", Panel: EnchantedLinkMethod },
  { id: "whatsapp-link", label: "Send a sign-in link by WhatsApp", Panel: WhatsAppLinkMethod },
];

/** Methods that need no address, shown under the address on the first step. */
export const identifierStepMethods: ComponentType<IdentifierStepProps>[] = [PasskeySignIn, PhoneSignIn];

/** The methods in the order to offer them: the one used last first. */
export function orderMethods(methods: SignInMethod[], lastMethod: string | undefined): SignInMethod[] {
  const last = methods.find((method) => method.id === lastMethod);
  return last ? [last, ...methods.filter((method) => method !== last)] : methods;
}

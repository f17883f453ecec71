import { passkeyClient } from "@better-auth/passkey/client";
import { createAuthClient } from "better-auth/client";
import { magicLinkClient, phoneNumberClient, twoFactorClient } from "better-auth/client/plugins";

/**
 * The sign-in methods beyond the password and the e-mailed code: sign-in links, the
 * authenticator app, passkeys and phone codes. Only the sign-in and account pages load it, so
 * every other page's first load stays within its budget; sessions are the same cookies as
 * `authClient`'s.
 */
export const authMethodsClient = createAuthClient({
  // The sign-in page shows the second-factor step itself when a sign-in answers twoFactorRedirect.
  plugins: [magicLinkClient(), twoFactorClient(), passkeyClient(), phoneNumberClient()],
});

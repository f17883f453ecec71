import { passkeyClient } from "@better-auth/passkey/client";
import {
  emailOTPClient,
  magicLinkClient,
  organizationClient,
  phoneNumberClient,
  twoFactorClient,
} from "better-auth/client/plugins";
import { createAuthClient } from "better-auth/react";

export const authClient = createAuthClient({
  // The sign-in page shows the second-factor step itself when a sign-in answers twoFactorRedirect.
  plugins: [
    organizationClient(),
    emailOTPClient(),
    magicLinkClient(),
    twoFactorClient(),
    passkeyClient(),
    phoneNumberClient(),
  ],
});

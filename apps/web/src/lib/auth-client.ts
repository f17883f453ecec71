import {
  emailOTPClient,
  magicLinkClient,
  organizationClient,
  twoFactorClient,
} from "better-auth/client/plugins";
import { createAuthClient } from "better-auth/react";

export const authClient = createAuthClient({
  // The sign-in page shows the second-factor step itself when a sign-in answers twoFactorRedirect.
  plugins: [organizationClient(), emailOTPClient(), magicLinkClient(), twoFactorClient()],
});

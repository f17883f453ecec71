import { createAuthClient } from "better-auth/client";
import { emailOTPClient, organizationClient } from "better-auth/client/plugins";

/** Sessions, tenants and the e-mailed code; the other methods are in `auth-methods-client.ts`. */
export const authClient = createAuthClient({
  plugins: [organizationClient(), emailOTPClient()],
});

import { passkeyClient } from "@better-auth/passkey/client";
import { emailOTPClient, organizationClient, phoneNumberClient } from "better-auth/client/plugins";
import { createAuthClient } from "better-auth/react";

export const authClient = createAuthClient({
  plugins: [organizationClient(), emailOTPClient(), passkeyClient(), phoneNumberClient()],
});

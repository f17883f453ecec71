import type { Database } from "../db/database";
import { findSessionSignIn } from "./session-repository";
import type { TenantDirectory } from "./tenant-directory";

/** The answer of a tenant's methods to a member who has not met its Require MFA yet. */
export const MFA_SETUP_REQUIRED_MESSAGE =
  "This tenant requires two-factor authentication. Set up an authenticator app on your account page " +
  "(or sign in with a passkey), then try again.";

/**
 * Require MFA (a tenant setting): a session of a member meets it when the member has an
 * authenticator app (every password or e-mailed-code sign-in then asks for its code), or the
 * session signed in with a passkey (phishing-resistant on its own), or by the tenant's own single
 * sign-on (its identity provider is trusted to apply the organisation's MFA). Otherwise the
 * member may use their account page only, where they set up an app.
 */
export async function mfaSetupRequired(
  deps: { db: Database; tenants: TenantDirectory },
  member: { tenantId: string; sessionId: string; twoFactorEnabled: boolean },
): Promise<boolean> {
  if (member.twoFactorEnabled) return false;
  if (!(await deps.tenants.requiresMfa(member.tenantId))) return false;
  const signIn = await findSessionSignIn(deps.db, member.sessionId);
  if (signIn?.method === "passkey") return false;
  const ownSso =
    signIn?.method?.startsWith("sso-") && signIn.provider === deps.tenants.ssoProviderIdOf(member.tenantId);
  return !ownSso;
}

import { createQueryOptions } from "@connectrpc/connect-query";
import { SsoService } from "@palisade/api/gen/palisade/sso/v1/sso_pb";
import { appTransport } from "@/lib/transport";

/** The social buttons of this instance (public). */
export function signInOptionsQuery() {
  return {
    ...createQueryOptions(SsoService.method.getSignInOptions, {}, { transport: appTransport }),
    staleTime: Infinity,
  };
}

/** Whether an address signs in with its organisation's single sign-on (public, rate limited). */
export function ssoLookupQuery(email: string) {
  return {
    ...createQueryOptions(SsoService.method.lookupDomain, { email }, { transport: appTransport }),
    enabled: email !== "",
    staleTime: 5 * 60_000,
  };
}

/** Starts single sign-on for the address: the browser goes to the identity provider. */
export async function startSso(email: string, callbackURL: string): Promise<string | null> {
  const response = await fetch("/api/auth/sign-in/sso", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, callbackURL, errorCallbackURL: "/sign-in" }),
  });
  const body = (await response.json().catch(() => ({}))) as { url?: string; message?: string };
  if (response.ok && body.url) {
    window.location.assign(body.url);
    return null;
  }
  return body.message ?? "Single sign-on could not start. Try again, or ask your administrator.";
}

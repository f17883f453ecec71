import { useQuery } from "@tanstack/react-query";
import { KeyRoundIcon, LoaderIcon } from "lucide-react";
import { useState } from "react";
import * as z from "zod/mini";
import { Button } from "@/components/ui/button";
import { authClient } from "@/lib/auth-client";
import { emailAddressSchema } from "@/lib/email-address";
import { postSignInPath } from "@/lib/redirect-path";
import { useDebouncedValue } from "@/lib/use-debounced-value";
import { signInOptionsQuery, ssoLookupQuery, startSso } from "../api/sso-queries";
import { GoogleOneTap } from "./google-one-tap";

/**
 * "Continue with SSO" when the address's domain belongs to a tenant's single sign-on, and a
 * button per social provider this instance has turned on.
 */
export function SsoSignIn({ email, redirectPath }: { email: string; redirectPath: string | undefined }) {
  const typed = useDebouncedValue(email.trim(), 300);
  const lookup = useQuery(ssoLookupQuery(z.safeParse(emailAddressSchema, typed).success ? typed : ""));
  const options = useQuery(signInOptionsQuery());
  const [pending, setPending] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const callbackURL = postSignInPath(redirectPath);
  const providers = options.data?.providers ?? [];

  async function continueWithSso() {
    setPending("sso");
    setFailure(await startSso(typed, callbackURL));
    setPending(null);
  }

  async function continueWith(provider: string) {
    setPending(provider);
    const { error } = await authClient.signIn.social({ provider, callbackURL, errorCallbackURL: "/sign-in" });
    if (error) setFailure(error.message ?? "The provider could not be reached. Try again.");
    setPending(null);
  }

  if (!lookup.data?.sso && providers.length === 0) return null;
  return (
    <div className="space-y-3">
      <GoogleOneTap redirectPath={redirectPath} />
      {lookup.data?.sso && (
        <div className="space-y-2 rounded-md border bg-muted/40 p-3">
          <p className="text-sm">
            {lookup.data.required
              ? "Your organisation requires single sign-on for this address."
              : "Your organisation offers single sign-on for this address."}
          </p>
          <Button type="button" className="w-full" onClick={continueWithSso} disabled={pending !== null}>
            {pending === "sso" ? <LoaderIcon className="animate-spin" /> : <KeyRoundIcon />}
            Continue with SSO
          </Button>
        </div>
      )}
      {providers.length > 0 && (
        <div className="grid gap-2">
          <p className="text-center text-xs text-muted-foreground">or continue with</p>
          {providers.map((provider) => (
            <Button
              key={provider.id}
              type="button"
              variant="outline"
              className="w-full"
              disabled={pending !== null}
              onClick={() => continueWith(provider.id)}
            >
              {pending === provider.id && <LoaderIcon className="animate-spin" />}
              {provider.name}
            </Button>
          ))}
        </div>
      )}
      {failure && (
        <p role="alert" className="text-sm text-destructive">
          {failure}
        </p>
      )}
    </div>
  );
}

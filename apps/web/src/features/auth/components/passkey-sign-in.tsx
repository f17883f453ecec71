import { KeyRoundIcon, LoaderIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { authMethodsClient } from "@/lib/auth-methods-client";
import type { AuthErrorLike } from "../sign-in-error";
import type { IdentifierStepProps } from "./sign-in-methods";

/** What a refused passkey sign-in means for the person holding the device. */
export function passkeySignInErrorMessage(error: AuthErrorLike): string {
  if (error.code === "PASSKEY_NOT_FOUND")
    return "This passkey is not registered with Palisade. Sign in another way and add it on your account page.";
  if (error.code === "AUTH_CANCELLED" || error.code === "ERROR_CEREMONY_ABORTED")
    return "No passkey was used: the browser's prompt was closed or timed out. Try again.";
  if (error.code === "CHALLENGE_NOT_FOUND") return "The passkey prompt expired. Try again.";
  if (error.status === 429) return "Too many sign-in attempts. Wait a minute and try again.";
  if (error.status === 0 || error.status === undefined)
    return "The server could not be reached. Check your connection and try again.";
  return "The passkey could not be verified. Try again or sign in another way.";
}

/** "Sign in with a passkey": the browser offers the passkeys it holds for this site. */
export function PasskeySignIn({ onSignedIn }: IdentifierStepProps) {
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const signIn = async () => {
    setFailure(null);
    setPending(true);
    const { data, error } = await authMethodsClient.signIn.passkey();
    setPending(false);
    if (error || !data) {
      setFailure(passkeySignInErrorMessage(error ?? {}));
      return;
    }
    await onSignedIn({ email: data.user.email, name: data.user.name }, "passkey");
  };

  return (
    <div className="space-y-2">
      <Button
        type="button"
        variant="outline"
        className="w-full"
        disabled={pending}
        onClick={() => void signIn()}
      >
        {pending ? <LoaderIcon className="animate-spin" /> : <KeyRoundIcon />}
        Sign in with a passkey
      </Button>
      {failure && (
        <p role="alert" className="text-sm text-destructive">
          {failure}
        </p>
      )}
    </div>
  );
}

import { AlertCircleIcon, LoaderIcon, MailCheckIcon } from "lucide-react";
import { useLayoutEffect, useRef, useState } from "react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { authFailureText, retryAfterCapture } from "@/lib/auth-error";
import { authMethodsClient } from "@/lib/auth-methods-client";
import { signInErrorMessage } from "../sign-in-error";
import type { SignInMethodProps } from "./sign-in-methods";
import { useResendCountdown } from "./use-resend-countdown";

/** Sends a one-time link; the link opens a page that signs in whichever browser follows it. */
export function MagicLinkMethod({ email, chosen }: SignInMethodProps) {
  const [sent, setSent] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [resendIn, startCountdown] = useResendCountdown();
  const started = useRef(false);

  async function sendLink() {
    setBusy(true);
    setFailure(null);
    const capture = retryAfterCapture();
    const { error } = await authMethodsClient.signIn.magicLink({ email, fetchOptions: capture.fetchOptions });
    setBusy(false);
    if (error) {
      setFailure(
        error.status === 429 ? authFailureText(error, capture.seconds()) : signInErrorMessage(error),
      );
      return;
    }
    setSent(true);
    startCountdown();
  }

  // A layout effect runs in the commit of the click itself, not on a later timer.
  // biome-ignore lint/correctness/useExhaustiveDependencies: sent once when the panel opens
  useLayoutEffect(() => {
    if (!chosen || started.current) return;
    started.current = true;
    void sendLink();
  }, [chosen]);

  return (
    <div className="space-y-4">
      {failure && (
        <Alert variant="destructive">
          <AlertCircleIcon />
          <AlertTitle>Sign-in failed</AlertTitle>
          <AlertDescription>{failure}</AlertDescription>
        </Alert>
      )}
      {sent ? (
        <p className="flex gap-2 text-sm text-muted-foreground" role="status">
          <MailCheckIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          If {email} has a Palisade account, a sign-in link is on its way. Open it within 10 minutes; it works
          once.
        </p>
      ) : (
        <p className="text-sm text-muted-foreground">
          We e-mail you a link that signs you in; no password needed.
        </p>
      )}
      <Button
        type="button"
        variant={sent ? "outline" : "default"}
        className="w-full"
        disabled={busy || resendIn > 0}
        onClick={() => void sendLink()}
      >
        {busy && <LoaderIcon className="animate-spin" />}
        {busy
          ? "Sending..."
          : !sent
            ? "E-mail me a sign-in link"
            : resendIn > 0
              ? `Send a new link in ${resendIn} s`
              : "Send a new link"}
      </Button>
    </div>
  );
}

import { AlertCircleIcon, LoaderIcon, MailCheckIcon } from "lucide-react";
import { useLayoutEffect, useRef, useState } from "react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { type AuthFailure, authFailureText, retryAfterCapture } from "@/lib/auth-error";
import { signInErrorMessage } from "../sign-in-error";
import { useResendCountdown } from "./use-resend-countdown";

/**
 * The panel of a method that sends a one-time link (by e-mail or WhatsApp): sent when chosen,
 * then "Send a new link" after the wait; the link's page signs in whichever browser opens it.
 */
export function SendLinkPanel({
  chosen,
  send,
  description,
  sentText,
  sendLabel,
}: {
  chosen: boolean;
  /** Asks the server to send the link; `options` capture a 429's wait. */
  send: (
    options: ReturnType<typeof retryAfterCapture>["fetchOptions"],
  ) => Promise<{ error: AuthFailure | null }>;
  /** What the method does, before anything is sent. */
  description: string;
  /** What happened once sent; the same whether or not an account was sent anything. */
  sentText: string;
  sendLabel: string;
}) {
  const [sent, setSent] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [resendIn, startCountdown] = useResendCountdown();
  const started = useRef(false);

  async function sendLink() {
    setBusy(true);
    setFailure(null);
    const capture = retryAfterCapture();
    const { error } = await send(capture.fetchOptions);
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
          {sentText}
        </p>
      ) : (
        <p className="text-sm text-muted-foreground">{description}</p>
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
            ? sendLabel
            : resendIn > 0
              ? `Send a new link in ${resendIn} s`
              : "Send a new link"}
      </Button>
    </div>
  );
}

import { AlertCircleIcon, LoaderIcon, MailCheckIcon } from "lucide-react";
import { useLayoutEffect, useRef, useState } from "react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { type AuthFailure, authFailureText, retryAfterCapture } from "@/lib/auth-error";
import { signInErrorMessage } from "../sign-in-error";
import { useResendCountdown } from "./use-resend-countdown";

/** Asks the server to send a link; `options` capture a 429's wait. */
type SendLink<T> = (
  options: ReturnType<typeof retryAfterCapture>["fetchOptions"],
) => Promise<{ data: T | null; error: AuthFailure | null }>;

/**
 * Sends a link as soon as its method is chosen, and again on request once the wait is over;
 * `onSent` receives the server's answer.
 */
export function useLinkSender<T>(chosen: boolean, send: SendLink<T>, onSent: (answer: T) => void) {
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [resendIn, startCountdown] = useResendCountdown();
  const started = useRef(false);

  async function sendLink() {
    setBusy(true);
    setFailure(null);
    const capture = retryAfterCapture();
    const { data, error } = await send(capture.fetchOptions);
    setBusy(false);
    if (error || data === null) {
      setFailure(
        error?.status === 429 ? authFailureText(error, capture.seconds()) : signInErrorMessage(error ?? {}),
      );
      return;
    }
    onSent(data);
    startCountdown();
  }

  // A layout effect runs in the commit of the click itself, not on a later timer.
  // biome-ignore lint/correctness/useExhaustiveDependencies: sent once when the panel opens
  useLayoutEffect(() => {
    if (!chosen || started.current) return;
    started.current = true;
    void sendLink();
  }, [chosen]);

  return { failure, busy, resendIn, sendLink };
}

/** The button that sends the first link, then a new one once the wait is over. */
export function SendLinkButton({
  sender,
  sent,
  label,
}: {
  sender: ReturnType<typeof useLinkSender>;
  sent: boolean;
  label: string;
}) {
  const { busy, resendIn, sendLink } = sender;
  return (
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
          ? label
          : resendIn > 0
            ? `Send a new link in ${resendIn} s`
            : "Send a new link"}
    </Button>
  );
}

/** The alert of a refused request. */
export function SendFailure({ title = "Sign-in failed", text }: { title?: string; text: string | null }) {
  if (!text) return null;
  return (
    <Alert variant="destructive">
      <AlertCircleIcon />
      <AlertTitle>{title}</AlertTitle>
      <AlertDescription>{text}</AlertDescription>
    </Alert>
  );
}

/**
 * The panel of a method that sends a one-time link (by e-mail or WhatsApp): sent when chosen,
 * then "Send a new link" after the wait; the link's page signs in whichever browser opens it.
 */
export function SendLinkPanel<T>({
  chosen,
  send,
  description,
  sentText,
  sendLabel,
}: {
  chosen: boolean;
  send: SendLink<T>;
  /** What the method does, before anything is sent. */
  description: string;
  /** What happened once sent; the same whether or not an account was sent anything. */
  sentText: string;
  sendLabel: string;
}) {
  const [sent, setSent] = useState(false);
  const sender = useLinkSender(chosen, send, () => setSent(true));

  return (
    <div className="space-y-4">
      <SendFailure text={sender.failure} />
      {sent ? (
        <p className="flex gap-2 text-sm text-muted-foreground" role="status">
          <MailCheckIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          {sentText}
        </p>
      ) : (
        <p className="text-sm text-muted-foreground">{description}</p>
      )}
      <SendLinkButton sender={sender} sent={sent} label={sendLabel} />
    </div>
  );
}

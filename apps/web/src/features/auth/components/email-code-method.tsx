import { AlertCircleIcon, LoaderIcon } from "lucide-react";
import { type FormEvent, useId, useLayoutEffect, useRef, useState } from "react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { authClient } from "@/lib/auth-client";
import { authFailureText, retryAfterCapture } from "@/lib/auth-error";
import { signInCodeErrorMessage, signInErrorMessage } from "../sign-in-error";
import { needsSecondFactor, SecondFactorStep } from "./second-factor-step";
import type { SignInMethodProps } from "./sign-in-methods";
import { useResendCountdown } from "./use-resend-countdown";

export function EmailCodeMethod({ email, chosen, onSignedIn }: SignInMethodProps) {
  const id = useId();
  const [sent, setSent] = useState(false);
  const [code, setCode] = useState("");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [secondFactor, setSecondFactor] = useState(false);
  const [resendIn, startCountdown] = useResendCountdown();
  const started = useRef(false);

  async function sendCode() {
    setBusy(true);
    setFailure(null);
    const capture = retryAfterCapture();
    const { error } = await authClient.emailOtp.sendVerificationOtp({
      email,
      type: "sign-in",
      fetchOptions: capture.fetchOptions,
    });
    setBusy(false);
    if (error) {
      setFailure(
        error.status === 429 ? authFailureText(error, capture.seconds()) : signInErrorMessage(error),
      );
      return;
    }
    setSent(true);
    setCode("");
    startCountdown();
  }

  // Choosing "E-mail me a code" sends it; a code offered first because it was used last waits for a click.
  // A layout effect runs in the commit of the click itself, not on a later timer.
  // biome-ignore lint/correctness/useExhaustiveDependencies: sent once when the panel opens
  useLayoutEffect(() => {
    if (!chosen || started.current) return;
    started.current = true;
    void sendCode();
  }, [chosen]);

  async function onSignIn(event: FormEvent) {
    event.preventDefault();
    if (!/^\d{6}$/.test(code)) {
      setFieldError("Enter the 6 digits from the e-mail");
      return;
    }
    setFieldError(null);
    setFailure(null);
    setBusy(true);
    const { data, error } = await authClient.signIn.emailOtp({ email, otp: code });
    if (error || !data) {
      setBusy(false);
      setFailure(signInCodeErrorMessage(error ?? {}));
      return;
    }
    if (needsSecondFactor(data)) return setSecondFactor(true);
    if (!("user" in data)) return;
    await onSignedIn({ email, name: data.user.name }, "email-otp");
  }

  if (secondFactor) return <SecondFactorStep method="email-otp" onSignedIn={onSignedIn} />;

  const failureAlert = failure && (
    <Alert variant="destructive">
      <AlertCircleIcon />
      <AlertTitle>Sign-in failed</AlertTitle>
      <AlertDescription>{failure}</AlertDescription>
    </Alert>
  );

  if (!sent) {
    return (
      <div className="space-y-4">
        {failureAlert}
        <p className="text-sm text-muted-foreground">We e-mail you a one-time code; no password needed.</p>
        <Button type="button" className="w-full" disabled={busy} onClick={() => void sendCode()}>
          {busy && <LoaderIcon className="animate-spin" />}
          {busy ? "Sending..." : "E-mail me a code"}
        </Button>
      </div>
    );
  }

  return (
    <form onSubmit={onSignIn} noValidate className="space-y-4">
      <p className="text-sm text-muted-foreground" role="status">
        If {email} has a Palisade account, a 6-digit code is on its way. It is valid for 10 minutes.
      </p>
      {failureAlert}
      <div className="space-y-2">
        <Label htmlFor={`${id}-code`}>Code</Label>
        <Input
          id={`${id}-code`}
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6}"
          maxLength={6}
          autoFocus
          className="font-mono text-lg tracking-[0.4em]"
          value={code}
          onChange={(event) => setCode(event.target.value.replace(/\D/g, "").slice(0, 6))}
          aria-invalid={!!fieldError}
          aria-describedby={fieldError ? `${id}-code-error` : undefined}
        />
        {fieldError && (
          <p id={`${id}-code-error`} className="text-sm text-destructive">
            {fieldError}
          </p>
        )}
      </div>
      <Button type="submit" className="w-full" disabled={busy}>
        {busy && <LoaderIcon className="animate-spin" />}
        {busy ? "Signing in..." : "Sign in"}
      </Button>
      <Button
        type="button"
        variant="outline"
        className="w-full"
        disabled={busy || resendIn > 0}
        onClick={() => void sendCode()}
      >
        {resendIn > 0 ? `Resend code in ${resendIn} s` : "Resend code"}
      </Button>
    </form>
  );
}

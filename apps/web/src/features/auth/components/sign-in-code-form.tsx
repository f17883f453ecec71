import { useRouteContext, useRouter } from "@tanstack/react-router";
import { AlertCircleIcon, LoaderIcon } from "lucide-react";
import { type FormEvent, useEffect, useId, useState } from "react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { authClient } from "@/lib/auth-client";
import { authFailureText, retryAfterCapture } from "@/lib/auth-error";
import { emailAddressSchema } from "@/lib/email-address";
import { rememberLastLogin } from "@/lib/last-login";
import { postSignInPath } from "@/lib/redirect-path";
import { signInCodeErrorMessage, signInErrorMessage } from "../sign-in-error";

/** The server allows a few requests a minute; waiting this long keeps a person well inside it. */
export const RESEND_AFTER_SECONDS = 30;

const emailSchema = emailAddressSchema;

function useCountdown(): [number, () => void] {
  const [until, setUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until <= now) return;
    const timer = setTimeout(() => setNow(Date.now()), 250);
    return () => clearTimeout(timer);
  }, [until, now]);
  const left = Math.max(0, Math.ceil((until - now) / 1000));
  return [
    left,
    () => {
      const start = Date.now();
      setNow(start);
      setUntil(start + RESEND_AFTER_SECONDS * 1000);
    },
  ];
}

export function SignInCodeForm({
  redirectPath,
  initialEmail,
  onUsePassword,
}: {
  redirectPath: string | undefined;
  initialEmail: string;
  onUsePassword: () => void;
}) {
  const router = useRouter();
  const { auth } = useRouteContext({ from: "__root__" });
  const id = useId();
  const [email, setEmail] = useState(initialEmail);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [code, setCode] = useState("");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [resendIn, startCountdown] = useCountdown();

  async function sendCode(to: string) {
    setBusy(true);
    setFailure(null);
    const capture = retryAfterCapture();
    const { error } = await authClient.emailOtp.sendVerificationOtp({
      email: to,
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
    setSentTo(to);
    setCode("");
    startCountdown();
  }

  async function onRequest(event: FormEvent) {
    event.preventDefault();
    const parsed = emailSchema.safeParse(email);
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? "E-mail is required");
      return;
    }
    setFieldError(null);
    await sendCode(parsed.data);
  }

  async function onSignIn(event: FormEvent) {
    event.preventDefault();
    if (!sentTo) return;
    if (!/^\d{6}$/.test(code)) {
      setFieldError("Enter the 6 digits from the e-mail");
      return;
    }
    setFieldError(null);
    setFailure(null);
    setBusy(true);
    const { data, error } = await authClient.signIn.emailOtp({ email: sentTo, otp: code });
    if (error || !data) {
      setBusy(false);
      setFailure(signInCodeErrorMessage(error ?? {}));
      return;
    }
    rememberLastLogin({ loginId: sentTo, name: data.user.name });
    auth.invalidate();
    await router.navigate({ href: postSignInPath(redirectPath), replace: true });
  }

  const failureAlert = failure && (
    <Alert variant="destructive">
      <AlertCircleIcon />
      <AlertTitle>Sign-in failed</AlertTitle>
      <AlertDescription>{failure}</AlertDescription>
    </Alert>
  );

  if (!sentTo) {
    return (
      <form onSubmit={onRequest} noValidate className="space-y-4">
        {failureAlert}
        <div className="space-y-2">
          <Label htmlFor={`${id}-email`}>E-mail</Label>
          <Input
            id={`${id}-email`}
            type="email"
            autoComplete="username"
            autoFocus
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            aria-invalid={!!fieldError}
            aria-describedby={fieldError ? `${id}-email-error` : undefined}
          />
          {fieldError && (
            <p id={`${id}-email-error`} className="text-sm text-destructive">
              {fieldError}
            </p>
          )}
        </div>
        <Button type="submit" className="w-full" disabled={busy}>
          {busy && <LoaderIcon className="animate-spin" />}
          {busy ? "Sending..." : "E-mail me a code"}
        </Button>
        <Button type="button" variant="link" className="w-full" onClick={onUsePassword}>
          Sign in with a password instead
        </Button>
      </form>
    );
  }

  return (
    <form onSubmit={onSignIn} noValidate className="space-y-4">
      <p className="text-sm text-muted-foreground" role="status">
        If {sentTo} has a Palisade account, a 6-digit code is on its way. It is valid for 10 minutes.
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
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Button
          type="button"
          variant="outline"
          disabled={busy || resendIn > 0}
          onClick={() => sendCode(sentTo)}
        >
          {resendIn > 0 ? `Resend code in ${resendIn} s` : "Resend code"}
        </Button>
        <Button
          type="button"
          variant="link"
          onClick={() => {
            setSentTo(null);
            setFailure(null);
            setFieldError(null);
          }}
        >
          Use a different e-mail
        </Button>
      </div>
    </form>
  );
}

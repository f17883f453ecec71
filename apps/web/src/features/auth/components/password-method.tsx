import { AlertCircleIcon, LoaderIcon } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { authClient } from "@/lib/auth-client";
import { signInErrorMessage } from "../sign-in-error";
import { ForgotPasswordForm } from "./forgot-password-form";
import { needsSecondFactor, SecondFactorStep } from "./second-factor-step";
import type { SignInMethodProps } from "./sign-in-methods";

export function PasswordMethod({ email, onSignedIn }: SignInMethodProps) {
  const id = useId();
  const [password, setPassword] = useState("");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [secondFactor, setSecondFactor] = useState(false);
  const [forgot, setForgot] = useState(false);

  if (secondFactor) return <SecondFactorStep method="password" onSignedIn={onSignedIn} />;
  if (forgot) return <ForgotPasswordForm initialEmail={email} onBack={() => setForgot(false)} />;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!password) {
      setFieldError("Password is required");
      return;
    }
    setFieldError(null);
    setFailure(null);
    setBusy(true);
    const { data, error } = await authClient.signIn.email({ email, password });
    if (error || !data) {
      setBusy(false);
      setFailure(signInErrorMessage(error ?? {}));
      return;
    }
    if (needsSecondFactor(data)) return setSecondFactor(true);
    if (!("user" in data)) return;
    await onSignedIn({ email, name: data.user.name }, "password");
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {failure && (
        <Alert variant="destructive">
          <AlertCircleIcon />
          <AlertTitle>Sign-in failed</AlertTitle>
          <AlertDescription>{failure}</AlertDescription>
        </Alert>
      )}
      {/* Lets password managers pair the password with the address typed on the first step. */}
      <input type="email" autoComplete="username" value={email} readOnly hidden />
      <div className="space-y-2">
        <div className="flex items-center justify-between gap-2">
          <Label htmlFor={`${id}-password`}>Password</Label>
          <button
            type="button"
            className="text-sm font-medium text-primary underline-offset-2 hover:underline"
            onClick={() => setForgot(true)}
          >
            Forgot password?
          </button>
        </div>
        <Input
          id={`${id}-password`}
          type="password"
          autoComplete="current-password"
          autoFocus
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          aria-invalid={!!fieldError}
          aria-describedby={fieldError ? `${id}-password-error` : undefined}
        />
        {fieldError && (
          <p id={`${id}-password-error`} className="text-sm text-destructive">
            {fieldError}
          </p>
        )}
      </div>
      <Button type="submit" className="w-full" disabled={busy}>
        {busy && <LoaderIcon className="animate-spin" />}
        {busy ? "Signing in..." : "Sign in"}
      </Button>
    </form>
  );
}

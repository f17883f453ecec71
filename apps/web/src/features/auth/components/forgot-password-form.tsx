import { AlertCircleIcon, LoaderIcon, MailCheckIcon } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { authClient } from "@/lib/auth-client";
import { authFailureText, retryAfterCapture } from "@/lib/auth-error";
import { emailAddressSchema } from "@/lib/email-address";

/**
 * Asks for a password reset link. The answer is the same whether or not an account uses the
 * address, so the page never tells who has one.
 */
export function ForgotPasswordForm({ initialEmail, onBack }: { initialEmail: string; onBack: () => void }) {
  const id = useId();
  const [email, setEmail] = useState(initialEmail);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = emailAddressSchema.safeParse(email);
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? "E-mail is required");
      return;
    }
    setFieldError(null);
    setFailure(null);
    setBusy(true);
    const capture = retryAfterCapture();
    const { error } = await authClient.requestPasswordReset({
      email: parsed.data,
      fetchOptions: capture.fetchOptions,
    });
    setBusy(false);
    if (error) {
      setFailure(authFailureText(error, capture.seconds()));
      return;
    }
    setSentTo(parsed.data);
  }

  if (sentTo) {
    return (
      <div className="space-y-4">
        <Alert>
          <MailCheckIcon />
          <AlertTitle>Check your e-mail</AlertTitle>
          <AlertDescription>
            If an account uses {sentTo}, we have e-mailed it a link to choose a new password. The link works
            once, for one hour. Nothing arrived? Check your spam folder, or ask again in a few minutes.
          </AlertDescription>
        </Alert>
        <Button type="button" variant="outline" className="w-full" onClick={onBack}>
          Back to sign-in
        </Button>
      </div>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {failure && (
        <Alert variant="destructive">
          <AlertCircleIcon />
          <AlertTitle>The link was not sent</AlertTitle>
          <AlertDescription>{failure}</AlertDescription>
        </Alert>
      )}
      <div className="space-y-2">
        <Label htmlFor={`${id}-email`}>E-mail</Label>
        <Input
          id={`${id}-email`}
          type="email"
          autoComplete="username"
          autoFocus
          maxLength={300}
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
        E-mail me a reset link
      </Button>
      <Button type="button" variant="outline" className="w-full" onClick={onBack}>
        Back to sign-in
      </Button>
    </form>
  );
}

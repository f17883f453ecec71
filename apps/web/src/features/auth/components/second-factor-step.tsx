import { AlertCircleIcon, LoaderIcon } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { authFailureText, retryAfterCapture } from "@/lib/auth-error";
import { authMethodsClient } from "@/lib/auth-methods-client";
import type { SignedInUser } from "./sign-in-methods";

/** The answer of a sign-in that needs the second factor next. */
export function needsSecondFactor(data: unknown): boolean {
  return !!data && typeof data === "object" && "twoFactorRedirect" in data && data.twoFactorRedirect === true;
}

function codeFailure(
  error: { status?: number; code?: string; message?: string },
  retryAfter: number | undefined,
) {
  if (error.status === 401 && /expired|session/i.test(error.message ?? ""))
    return "This sign-in took too long. Start again from the e-mail address.";
  if (error.status === 401 || error.code === "INVALID_CODE" || error.code === "INVALID_BACKUP_CODE")
    return "That code is not right. Check it and try again.";
  return authFailureText(error, retryAfter);
}

/**
 * The second step of a sign-in for an account with an authenticator app: its 6-digit code, or
 * one of the backup codes, and optionally trusting this browser for 30 days.
 */
export function SecondFactorStep({
  method,
  onSignedIn,
}: {
  method: string;
  onSignedIn: (user: SignedInUser, method: string) => Promise<void>;
}) {
  const id = useId();
  const [backup, setBackup] = useState(false);
  const [code, setCode] = useState("");
  const [trustDevice, setTrustDevice] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const value = code.trim();
    if (!backup && !/^\d{6}$/.test(value))
      return setFailure("Enter the 6 digits your authenticator app shows.");
    if (backup && !/^[A-Za-z0-9-]{4,32}$/.test(value)) return setFailure("Enter one of your backup codes.");
    setFailure(null);
    setBusy(true);
    const capture = retryAfterCapture();
    const { data, error } = backup
      ? await authMethodsClient.twoFactor.verifyBackupCode({
          code: value,
          trustDevice,
          fetchOptions: capture.fetchOptions,
        })
      : await authMethodsClient.twoFactor.verifyTotp({
          code: value,
          trustDevice,
          fetchOptions: capture.fetchOptions,
        });
    if (error || !data) {
      setBusy(false);
      return setFailure(codeFailure(error ?? {}, capture.seconds()));
    }
    await onSignedIn({ email: data.user.email, name: data.user.name }, method);
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <p className="text-sm text-muted-foreground">
        {backup
          ? "Enter one of the backup codes you saved when you set up the app. Each works once."
          : "Open your authenticator app and enter the 6-digit code it shows for Palisade."}
      </p>
      {failure && (
        <Alert variant="destructive">
          <AlertCircleIcon />
          <AlertTitle>Sign-in failed</AlertTitle>
          <AlertDescription>{failure}</AlertDescription>
        </Alert>
      )}
      <div className="space-y-2">
        <Label htmlFor={`${id}-code`}>{backup ? "Backup code" : "Authenticator code"}</Label>
        <Input
          id={`${id}-code`}
          key={backup ? "backup" : "totp"}
          inputMode={backup ? "text" : "numeric"}
          autoComplete="one-time-code"
          maxLength={backup ? 32 : 6}
          autoFocus
          className="font-mono tracking-[0.3em]"
          value={code}
          onChange={(event) =>
            setCode(backup ? event.target.value : event.target.value.replace(/\D/g, "").slice(0, 6))
          }
        />
      </div>
      <div className="flex items-center gap-2">
        <input
          id={`${id}-trust`}
          type="checkbox"
          className="size-4"
          checked={trustDevice}
          onChange={(event) => setTrustDevice(event.target.checked)}
        />
        <Label htmlFor={`${id}-trust`} className="font-normal">
          Trust this device for 30 days
        </Label>
      </div>
      <Button type="submit" className="w-full" disabled={busy}>
        {busy && <LoaderIcon className="animate-spin" />}
        {busy ? "Checking..." : "Verify"}
      </Button>
      <Button
        type="button"
        variant="link"
        className="w-full"
        onClick={() => {
          setBackup(!backup);
          setCode("");
          setFailure(null);
        }}
      >
        {backup ? "Use the authenticator app" : "Use a backup code"}
      </Button>
    </form>
  );
}

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { CircleCheckIcon, LoaderIcon } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { type AuthFailure, authFailureText, retryAfterCapture } from "@/lib/auth-error";
import { authMethodsClient } from "@/lib/auth-methods-client";
import { QrCode } from "./qr-code";

const authenticatorStateKey = ["account", "authenticator"] as const;

function failureText(error: AuthFailure, retryAfter: number | undefined): string {
  if (error.code === "INVALID_PASSWORD") return "The password is not right. Check it and try again.";
  if (error.code === "INVALID_CODE" || error.code === "INVALID_TWO_FACTOR_CODE")
    return "That code is not right. Enter the 6 digits the app shows now.";
  return authFailureText(error, retryAfter);
}

interface Enrolment {
  uri: string;
  secret: string;
  backupCodes: string[];
}

/**
 * Enrols, confirms and removes an authenticator app (TOTP) as the second factor of the account.
 * `onEnabled` runs once an app is confirmed (the set-up page Require MFA opens then continues).
 */
export function AuthenticatorCard({ onEnabled }: { onEnabled?: () => void } = {}) {
  const queryClient = useQueryClient();
  const { data: enabled } = useQuery({
    queryKey: authenticatorStateKey,
    queryFn: async () => {
      const { data } = await authMethodsClient.getSession();
      return !!(data?.user as { twoFactorEnabled?: boolean } | undefined)?.twoFactorEnabled;
    },
  });
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [done, setDone] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: authenticatorStateKey });

  return (
    <Card role="region" aria-label="Authenticator app">
      <CardHeader>
        <CardTitle as="h2">Authenticator app</CardTitle>
        <CardDescription>
          A second step at sign-in: after your password or an e-mailed code, enter the 6-digit code of an
          authenticator app.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {done && (
          <p className="flex items-center gap-2 text-sm" role="status">
            <CircleCheckIcon className="size-4 text-green-600" aria-hidden="true" /> Authenticator app is on.
          </p>
        )}
        {enrolment ? (
          <ConfirmEnrolment
            enrolment={enrolment}
            onConfirmed={async () => {
              setEnrolment(null);
              setDone(true);
              await refresh();
              onEnabled?.();
            }}
          />
        ) : enabled ? (
          <PasswordStep
            label="Turn off"
            description="Authenticator app: on. To turn it off, enter your password."
            onPassword={async (password) => {
              const capture = retryAfterCapture();
              const { error } = await authMethodsClient.twoFactor.disable({
                password,
                fetchOptions: capture.fetchOptions,
              });
              if (error) return failureText(error, capture.seconds());
              setDone(false);
              await refresh();
              return null;
            }}
          />
        ) : enabled === false ? (
          <PasswordStep
            label="Set up"
            description="Authenticator app: off. To set one up, enter your password."
            onPassword={async (password) => {
              const capture = retryAfterCapture();
              const { data, error } = await authMethodsClient.twoFactor.enable({
                password,
                fetchOptions: capture.fetchOptions,
              });
              if (error || !data || !("totpURI" in data) || !data.totpURI)
                return failureText(error ?? {}, capture.seconds());
              const secret = new URL(data.totpURI).searchParams.get("secret") ?? "";
              setEnrolment({ uri: data.totpURI, secret, backupCodes: data.backupCodes ?? [] });
              return null;
            }}
          />
        ) : null}
      </CardContent>
    </Card>
  );
}

function PasswordStep({
  label,
  description,
  onPassword,
}: {
  label: string;
  description: string;
  onPassword: (password: string) => Promise<string | null>;
}) {
  const id = useId();
  const [password, setPassword] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!password) return setFailure("Enter your password.");
    setBusy(true);
    setFailure(await onPassword(password));
    setBusy(false);
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <p className="text-sm">{description}</p>
      {failure && (
        <Alert variant="destructive">
          <AlertDescription>{failure}</AlertDescription>
        </Alert>
      )}
      <div className="space-y-2">
        <Label htmlFor={`${id}-password`}>Password</Label>
        <Input
          id={`${id}-password`}
          type="password"
          autoComplete="current-password"
          maxLength={200}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </div>
      <Button type="submit" disabled={busy}>
        {busy && <LoaderIcon className="animate-spin" />}
        {label}
      </Button>
    </form>
  );
}

function ConfirmEnrolment({
  enrolment,
  onConfirmed,
}: {
  enrolment: Enrolment;
  onConfirmed: () => Promise<void>;
}) {
  const id = useId();
  const [code, setCode] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!/^\d{6}$/.test(code)) return setFailure("Enter the 6 digits the app shows.");
    setBusy(true);
    const capture = retryAfterCapture();
    const { error } = await authMethodsClient.twoFactor.verifyTotp({
      code,
      fetchOptions: capture.fetchOptions,
    });
    setBusy(false);
    if (error) return setFailure(failureText(error, capture.seconds()));
    await onConfirmed();
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <ol className="list-decimal space-y-4 pl-5 text-sm">
        <li className="space-y-2">
          <p>Scan this code with your authenticator app, or type the key into it.</p>
          <QrCode value={enrolment.uri} label="QR code for your authenticator app" />
          <p>
            Key:{" "}
            <code className="font-mono break-all" data-testid="authenticator-key">
              {enrolment.secret}
            </code>
          </p>
        </li>
        <li className="space-y-2">
          <p>
            Keep these backup codes somewhere safe. Each one signs you in once if you lose the app. They are
            shown only now.
          </p>
          <ul aria-label="Backup codes" className="grid grid-cols-2 gap-1 font-mono">
            {enrolment.backupCodes.map((backupCode) => (
              <li key={backupCode}>{backupCode}</li>
            ))}
          </ul>
        </li>
        <li className="space-y-2">
          <Label htmlFor={`${id}-code`}>Code from the app</Label>
          <Input
            id={`${id}-code`}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            className="font-mono tracking-[0.3em]"
            value={code}
            onChange={(event) => setCode(event.target.value.replace(/\D/g, "").slice(0, 6))}
          />
        </li>
      </ol>
      {failure && (
        <Alert variant="destructive">
          <AlertDescription>{failure}</AlertDescription>
        </Alert>
      )}
      <Button type="submit" disabled={busy}>
        {busy && <LoaderIcon className="animate-spin" />}
        Turn on
      </Button>
    </form>
  );
}

import { zodResolver } from "@hookform/resolvers/zod";
import { Link } from "@tanstack/react-router";
import { AlertCircleIcon, CircleCheckIcon, LinkIcon, LoaderIcon } from "lucide-react";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import * as z from "zod/mini";
import { Logo } from "@/components/logo";
import { PasswordRules } from "@/components/password-rules";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { newPasswordField } from "@/lib/account-fields";
import { authClient } from "@/lib/auth-client";
import { authFailureText, retryAfterCapture } from "@/lib/auth-error";
import { useDocumentTitle } from "@/lib/use-document-title";

const resetSchema = z
  .object({
    newPassword: newPasswordField,
    confirmPassword: z.string(),
  })
  .check(
    z.refine((values) => values.newPassword === values.confirmPassword, {
      message: "The two passwords differ",
      path: ["confirmPassword"],
    }),
  );

type ResetValues = z.infer<typeof resetSchema>;
type Outcome = "form" | "done" | "invalid";

function InvalidLink() {
  return (
    <Card className="w-full max-w-sm">
      <CardHeader>
        <LinkIcon className="size-6 text-muted-foreground" aria-hidden="true" />
        <CardTitle as="h1" className="text-xl">
          This reset link no longer works
        </CardTitle>
        <CardDescription>
          A reset link works once and for one hour; this one has expired, was already used or is incomplete.
          Ask for a new one with “Forgot password?” on the sign-in page.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button asChild className="w-full">
          <Link to="/">Go to sign-in</Link>
        </Button>
      </CardContent>
    </Card>
  );
}

function ResetForm({ token, onOutcome }: { token: string; onOutcome: (outcome: Outcome) => void }) {
  const id = useId();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<ResetValues>({
    resolver: zodResolver(resetSchema),
    defaultValues: { newPassword: "", confirmPassword: "" },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ newPassword }) => {
    setFailure(null);
    const capture = retryAfterCapture();
    const { error } = await authClient.resetPassword({
      newPassword,
      token,
      fetchOptions: capture.fetchOptions,
    });
    if (!error) return onOutcome("done");
    if (error.code === "INVALID_TOKEN" || error.code === "USER_NOT_FOUND") return onOutcome("invalid");
    setFailure(authFailureText(error, capture.seconds()));
  });

  const fields = [
    { name: "newPassword", label: "New password" },
    { name: "confirmPassword", label: "New password again" },
  ] as const;

  return (
    <Card className="w-full max-w-sm">
      <CardHeader>
        <CardTitle as="h1" className="text-xl">
          Choose a new password
        </CardTitle>
        <CardDescription>
          <PasswordRules /> Every device signed in to your account is signed out.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          {failure && (
            <Alert variant="destructive">
              <AlertCircleIcon />
              <AlertTitle>The password was not changed</AlertTitle>
              <AlertDescription>{failure}</AlertDescription>
            </Alert>
          )}
          {fields.map((field) => {
            const error = errors[field.name];
            return (
              <div key={field.name} className="space-y-2">
                <Label htmlFor={`${id}-${field.name}`}>{field.label}</Label>
                <Input
                  id={`${id}-${field.name}`}
                  type="password"
                  autoComplete="new-password"
                  maxLength={200}
                  aria-invalid={!!error}
                  aria-describedby={error ? `${id}-${field.name}-error` : undefined}
                  {...form.register(field.name)}
                />
                {error && (
                  <p id={`${id}-${field.name}-error`} className="text-sm text-destructive">
                    {error.message}
                  </p>
                )}
              </div>
            );
          })}
          <Button type="submit" className="w-full" disabled={isSubmitting}>
            {isSubmitting && <LoaderIcon className="animate-spin" />}
            Save new password
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

export function ResetPasswordPage({ token }: { token: string }) {
  useDocumentTitle("Reset password");
  const [outcome, setOutcome] = useState<Outcome>(token ? "form" : "invalid");
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-8 px-4 py-12">
      <Logo />
      {outcome === "invalid" ? (
        <InvalidLink />
      ) : outcome === "done" ? (
        <Card className="w-full max-w-sm">
          <CardHeader>
            <CircleCheckIcon className="size-6 text-success" aria-hidden="true" />
            <CardTitle as="h1" className="text-xl">
              Your password is changed
            </CardTitle>
            <CardDescription>Sign in with your new password.</CardDescription>
          </CardHeader>
          <CardContent>
            <Button asChild className="w-full">
              <Link to="/">Sign in</Link>
            </Button>
          </CardContent>
        </Card>
      ) : (
        <ResetForm token={token} onOutcome={setOutcome} />
      )}
    </main>
  );
}

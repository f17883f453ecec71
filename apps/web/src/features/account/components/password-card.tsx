import { zodResolver } from "@hookform/resolvers/zod";
import { LoaderIcon } from "lucide-react";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { PasswordRules } from "@/components/password-rules";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { authClient } from "@/lib/auth-client";
import { type AuthFailure, authFailureText, retryAfterCapture } from "@/lib/auth-error";
import { type ChangePasswordValues, changePasswordSchema } from "../forms/account-schemas";

function changePasswordFailure(error: AuthFailure, retryAfter: number | undefined): string {
  if (error.code === "INVALID_PASSWORD") return "The current password is not right. Check it and try again.";
  if (error.code === "CREDENTIAL_ACCOUNT_NOT_FOUND")
    return "This account has no password yet. Sign out and use “Forgot password?” on the sign-in page to set one.";
  return authFailureText(error, retryAfter);
}

const fields = [
  { name: "oldPassword", label: "Current password", autoComplete: "current-password" },
  { name: "newPassword", label: "New password", autoComplete: "new-password" },
  { name: "confirmPassword", label: "New password again", autoComplete: "new-password" },
] as const;

export function PasswordCard() {
  const id = useId();
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const form = useForm<ChangePasswordValues>({
    resolver: zodResolver(changePasswordSchema),
    defaultValues: { oldPassword: "", newPassword: "", confirmPassword: "" },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setResult(null);
    const capture = retryAfterCapture();
    const { error } = await authClient.changePassword({
      currentPassword: values.oldPassword,
      newPassword: values.newPassword,
      revokeOtherSessions: false,
      fetchOptions: capture.fetchOptions,
    });
    if (error) {
      setResult({ ok: false, text: changePasswordFailure(error, capture.seconds()) });
      return;
    }
    form.reset();
    setResult({ ok: true, text: "Password changed. Use the new one the next time you sign in." });
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Password</CardTitle>
        <CardDescription>
          <PasswordRules /> Your other sessions stay signed in.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          {fields.map((field) => {
            const error = errors[field.name];
            return (
              <div key={field.name} className="space-y-2">
                <Label htmlFor={`${id}-${field.name}`}>{field.label}</Label>
                <Input
                  id={`${id}-${field.name}`}
                  type="password"
                  autoComplete={field.autoComplete}
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
          {result && (
            <p
              role={result.ok ? "status" : "alert"}
              className={result.ok ? "text-sm" : "text-sm text-destructive"}
            >
              {result.text}
            </p>
          )}
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting && <LoaderIcon className="animate-spin" />}
            Change password
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

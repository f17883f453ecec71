import { zodResolver } from "@hookform/resolvers/zod";
import { useRouteContext, useRouter } from "@tanstack/react-router";
import { AlertCircleIcon, LoaderIcon } from "lucide-react";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import * as z from "zod/mini";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { authClient } from "@/lib/auth-client";
import { emailAddressSchema } from "@/lib/email-address";
import { readLastLogin, rememberLastLogin } from "@/lib/last-login";
import { postSignInPath } from "@/lib/redirect-path";
import { signInErrorMessage } from "../sign-in-error";
import { ForgotPasswordForm } from "./forgot-password-form";
import { SignInCodeForm } from "./sign-in-code-form";
import { SsoSignIn } from "./sso-sign-in";

const signInSchema = z.object({
  email: emailAddressSchema,
  password: z.string().check(z.minLength(1, "Password is required")),
});

type SignInValues = z.infer<typeof signInSchema>;

export function SignInCard({ redirectPath }: { redirectPath: string | undefined }) {
  const router = useRouter();
  const { auth } = useRouteContext({ from: "__root__" });
  const [lastLogin] = useState(() => readLastLogin());
  const [failure, setFailure] = useState<string | null>(null);
  const [method, setMethod] = useState<"password" | "code" | "forgot">("password");
  const id = useId();
  const form = useForm<SignInValues>({
    resolver: zodResolver(signInSchema),
    defaultValues: { email: lastLogin?.loginId ?? "", password: "" },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ email, password }) => {
    setFailure(null);
    const { data, error } = await authClient.signIn.email({ email, password });
    if (error || !data) {
      setFailure(signInErrorMessage(error ?? {}));
      return;
    }
    rememberLastLogin({ loginId: email, name: data.user.name });
    auth.invalidate();
    await router.navigate({ href: postSignInPath(redirectPath), replace: true });
  });

  return (
    <Card className="w-full max-w-sm">
      <CardHeader>
        <CardTitle as="h1" className="text-xl">
          {lastLogin ? `Welcome back, ${lastLogin.name}` : "Sign in to Palisade"}
        </CardTitle>
        <CardDescription>
          {method === "password"
            ? "Use the e-mail address and password of your Palisade account."
            : method === "code"
              ? "We e-mail you a one-time code; no password needed."
              : "We e-mail you a link to choose a new password."}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {method === "forgot" ? (
          <ForgotPasswordForm initialEmail={form.getValues("email")} onBack={() => setMethod("password")} />
        ) : method === "code" ? (
          <SignInCodeForm
            redirectPath={redirectPath}
            initialEmail={form.getValues("email")}
            onUsePassword={() => setMethod("password")}
          />
        ) : (
          <form onSubmit={onSubmit} noValidate className="space-y-4">
            {failure && (
              <Alert variant="destructive">
                <AlertCircleIcon />
                <AlertTitle>Sign-in failed</AlertTitle>
                <AlertDescription>{failure}</AlertDescription>
              </Alert>
            )}
            <div className="space-y-2">
              <Label htmlFor={`${id}-email`}>E-mail</Label>
              <Input
                id={`${id}-email`}
                type="email"
                autoComplete="username"
                autoFocus={!lastLogin}
                aria-invalid={!!errors.email}
                aria-describedby={errors.email ? `${id}-email-error` : undefined}
                {...form.register("email")}
              />
              {errors.email && (
                <p id={`${id}-email-error`} className="text-sm text-destructive">
                  {errors.email.message}
                </p>
              )}
            </div>
            <div className="space-y-2">
              <div className="flex items-center justify-between gap-2">
                <Label htmlFor={`${id}-password`}>Password</Label>
                <button
                  type="button"
                  className="text-sm font-medium text-primary underline-offset-2 hover:underline"
                  onClick={() => setMethod("forgot")}
                >
                  Forgot password?
                </button>
              </div>
              <Input
                id={`${id}-password`}
                type="password"
                autoComplete="current-password"
                autoFocus={!!lastLogin}
                aria-invalid={!!errors.password}
                aria-describedby={errors.password ? `${id}-password-error` : undefined}
                {...form.register("password")}
              />
              {errors.password && (
                <p id={`${id}-password-error`} className="text-sm text-destructive">
                  {errors.password.message}
                </p>
              )}
            </div>
            <Button type="submit" className="w-full" disabled={isSubmitting}>
              {isSubmitting && <LoaderIcon className="animate-spin" />}
              {isSubmitting ? "Signing in..." : "Sign in"}
            </Button>
            <Button type="button" variant="outline" className="w-full" onClick={() => setMethod("code")}>
              E-mail me a code
            </Button>
            <SsoSignIn email={form.watch("email")} redirectPath={redirectPath} />
          </form>
        )}
      </CardContent>
    </Card>
  );
}

import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { AlertCircleIcon, LoaderIcon, MailCheckIcon, UserPlusIcon } from "lucide-react";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { Logo } from "@/components/logo";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Skeleton } from "@/components/ui/skeleton";
import { MAX_NAME_LENGTH, MIN_PASSWORD_LENGTH } from "@/lib/account-fields";
import { authClient } from "@/lib/auth-client";
import { retryAfterCapture } from "@/lib/auth-error";
import { errorText } from "@/lib/error-text";
import { useDocumentTitle } from "@/lib/use-document-title";
import { signUpOptionsQuery } from "../api/sign-up-options";
import { type SignUpValues, signUpFailureText, signUpSchema } from "../forms/sign-up-schema";

const fields = [
  { name: "name", label: "Name", type: "text", autoComplete: "name", maxLength: MAX_NAME_LENGTH + 20 },
  { name: "email", label: "Work e-mail", type: "email", autoComplete: "email", maxLength: 300 },
  { name: "password", label: "Password", type: "password", autoComplete: "new-password", maxLength: 200 },
  {
    name: "confirm",
    label: "Password again",
    type: "password",
    autoComplete: "new-password",
    maxLength: 200,
  },
] as const;

function SignUpForm({ onSent }: { onSent: (email: string) => void }) {
  const id = useId();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<SignUpValues>({
    resolver: zodResolver(signUpSchema),
    defaultValues: { name: "", email: "", password: "", confirm: "" },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ name, email, password }) => {
    setFailure(null);
    const capture = retryAfterCapture();
    const { error } = await authClient.signUp.email({
      name,
      email,
      password,
      fetchOptions: capture.fetchOptions,
    });
    if (error) {
      setFailure(signUpFailureText(error, capture.seconds()));
      return;
    }
    onSent(email);
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {failure && (
        <Alert variant="destructive">
          <AlertCircleIcon />
          <AlertTitle>The account was not created</AlertTitle>
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
              type={field.type}
              autoComplete={field.autoComplete}
              maxLength={field.maxLength}
              autoFocus={field.name === "name"}
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
        {isSubmitting ? <LoaderIcon className="animate-spin" /> : <UserPlusIcon />}
        {isSubmitting ? "Creating your account..." : "Create account"}
      </Button>
    </form>
  );
}

function CheckInbox({ email }: { email: string }) {
  return (
    <div className="space-y-4">
      <Alert>
        <MailCheckIcon />
        <AlertTitle>Check your inbox</AlertTitle>
        <AlertDescription>
          We have e-mailed {email} a link to confirm the address, unless an account already uses it. Follow
          the link within 24 hours; then you can sign in. Nothing arrived? Check your spam folder, or sign in
          with your password later to be sent a new link.
        </AlertDescription>
      </Alert>
      <Button asChild variant="outline" className="w-full">
        <Link to="/">Back to sign-in</Link>
      </Button>
    </div>
  );
}

export function SignUpPage() {
  useDocumentTitle("Create an account");
  const { data, isPending, error } = useQuery(signUpOptionsQuery());
  const [sentTo, setSentTo] = useState<string | null>(null);

  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-8 px-4 py-12">
      <Logo />
      <Card className="w-full max-w-sm">
        <CardHeader>
          <CardTitle as="h1" className="text-xl">
            Create your Palisade account
          </CardTitle>
          <CardDescription>
            Your account starts outside any tenant: an administrator of your organisation invites you to
            theirs. Passwords have at least {data?.minPasswordLength || MIN_PASSWORD_LENGTH} characters.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          {isPending ? (
            <Skeleton className="h-64 w-full" />
          ) : error ? (
            <Alert variant="destructive">
              <AlertCircleIcon />
              <AlertTitle>Sign-up is not available right now</AlertTitle>
              <AlertDescription>{errorText(error)} Reload the page to try again.</AlertDescription>
            </Alert>
          ) : !data?.signUpAllowed ? (
            <Alert>
              <AlertCircleIcon />
              <AlertTitle>Sign-up is turned off</AlertTitle>
              <AlertDescription>
                Accounts on this server come from invitations. Ask an administrator of your organisation to
                invite you; the invitation e-mail lets you set your password.
              </AlertDescription>
            </Alert>
          ) : sentTo ? (
            <CheckInbox email={sentTo} />
          ) : (
            <SignUpForm onSent={setSentTo} />
          )}
          {!sentTo && (
            <p className="text-center text-sm text-muted-foreground">
              Already have an account?{" "}
              <Link to="/" className="font-medium text-primary underline-offset-2 hover:underline">
                Sign in
              </Link>
            </p>
          )}
        </CardContent>
      </Card>
    </main>
  );
}

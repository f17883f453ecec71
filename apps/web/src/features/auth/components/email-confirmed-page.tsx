import { Link } from "@tanstack/react-router";
import { CircleCheckIcon, LinkIcon, LogInIcon } from "lucide-react";
import { Logo } from "@/components/logo";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useDocumentTitle } from "@/lib/use-document-title";
import { confirmationFailureText } from "../email-confirmation";

/**
 * Where the address confirmation link lands: the address is confirmed (the link also signs the new
 * account in), or the link did not work and the page says how to get a new one.
 */
export function EmailConfirmedPage({
  error,
  signedInAs,
}: {
  error: string | undefined;
  signedInAs: string | null;
}) {
  useDocumentTitle(error ? "Confirmation link not valid" : "Address confirmed");
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-8 px-4 py-12">
      <Logo />
      <Card className="w-full max-w-sm">
        {error ? (
          <CardHeader>
            <LinkIcon className="size-6 text-muted-foreground" aria-hidden="true" />
            <CardTitle as="h1" className="text-xl">
              This confirmation link no longer works
            </CardTitle>
            <CardDescription>{confirmationFailureText(error)}</CardDescription>
          </CardHeader>
        ) : (
          <CardHeader>
            <CircleCheckIcon className="size-6 text-success" aria-hidden="true" />
            <CardTitle as="h1" className="text-xl">
              Your e-mail address is confirmed
            </CardTitle>
            <CardDescription>
              {signedInAs
                ? `You are signed in as ${signedInAs}.`
                : "You can now sign in with your e-mail address and password."}
            </CardDescription>
          </CardHeader>
        )}
        <CardContent>
          {signedInAs && !error ? (
            <Button asChild className="w-full">
              <Link to="/account">Continue to your account</Link>
            </Button>
          ) : (
            <Button asChild className="w-full">
              <Link to="/">
                <LogInIcon />
                Sign in
              </Link>
            </Button>
          )}
        </CardContent>
      </Card>
    </main>
  );
}

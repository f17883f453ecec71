import { Link, useRouteContext, useRouter } from "@tanstack/react-router";
import { LinkIcon, LoaderIcon, LogInIcon } from "lucide-react";
import { useEffect, useState } from "react";
import { Logo } from "@/components/logo";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { rememberLastLogin } from "@/lib/last-login";
import { postSignInPath } from "@/lib/redirect-path";
import { useDocumentTitle } from "@/lib/use-document-title";

/** Where the link's button goes: the server spends the token, sets the session and comes back here. */
export function verifyLinkAddress(token: string): string {
  const query = new URLSearchParams({
    token,
    callbackURL: "/sign-in-link?signedIn=1",
    errorCallbackURL: "/sign-in-link",
  });
  return `/api/auth/magic-link/verify?${query}`;
}

function InvalidLink() {
  return (
    <Card className="w-full max-w-sm">
      <CardHeader>
        <LinkIcon className="size-6 text-muted-foreground" aria-hidden="true" />
        <CardTitle as="h1" className="text-xl">
          This sign-in link no longer works
        </CardTitle>
        <CardDescription>
          A sign-in link works once and for 10 minutes; this one has expired, was already used or is
          incomplete. Ask for a new one on the sign-in page.
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

function SignedIn() {
  const router = useRouter();
  const { auth } = useRouteContext({ from: "__root__" });
  const [missing, setMissing] = useState(false);
  useEffect(() => {
    let cancelled = false;
    auth.invalidate();
    void auth.getSession().then(async (session) => {
      if (cancelled) return;
      if (!session) return setMissing(true);
      rememberLastLogin({ loginId: session.user.email, name: session.user.name, method: "magic-link" });
      await router.navigate({ href: postSignInPath(undefined), replace: true });
    });
    return () => {
      cancelled = true;
    };
  }, [auth, router]);
  if (missing) return <InvalidLink />;
  return (
    <p className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
      <LoaderIcon className="size-4 animate-spin" aria-hidden="true" /> Signing you in...
    </p>
  );
}

/**
 * The page an e-mailed sign-in link opens. Its button spends the link, so a mail scanner that
 * fetches links ahead of the reader signs nobody in and spends nothing.
 */
export function SignInLinkPage({
  state,
  token,
}: {
  state: "ready" | "invalid" | "signed-in";
  token: string;
}) {
  useDocumentTitle("Sign in");
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-8 px-4 py-12">
      <Logo />
      {state === "invalid" ? (
        <InvalidLink />
      ) : state === "signed-in" ? (
        <SignedIn />
      ) : (
        <Card className="w-full max-w-sm">
          <CardHeader>
            <CardTitle as="h1" className="text-xl">
              Sign in to Palisade
            </CardTitle>
            <CardDescription>
              This link signs in the account it was sent to, on this browser. It works once.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <Button asChild className="w-full">
              <a href={verifyLinkAddress(token)}>
                <LogInIcon aria-hidden="true" /> Sign in
              </a>
            </Button>
          </CardContent>
        </Card>
      )}
    </main>
  );
}

import { useNavigate } from "@tanstack/react-router";
import { AlertCircleIcon, LoaderIcon, MailWarningIcon } from "lucide-react";
import { useState } from "react";
import { Logo } from "@/components/logo";
import { PasswordRules } from "@/components/password-rules";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { formatDateTime } from "@/lib/date-time";
import { errorText } from "@/lib/error-text";
import { defaultLandingPath } from "@/lib/redirect-path";
import { useDocumentTitle } from "@/lib/use-document-title";
import { useSignOut } from "@/lib/use-sign-out";
import { useAcceptInvitation } from "../api/invitation-queries";
import type { InvitationView } from "../invitation-view";
import { NewAccountForm } from "./new-account-form";

// A full load, so the session, the active tenant and every cached query start afresh in the tenant joined.
function enterTenant() {
  window.location.assign(defaultLandingPath);
}

export function InvitationPage({
  token,
  view,
  signedInEmail,
}: {
  token: string;
  view: InvitationView;
  signedInEmail: string | null;
}) {
  useDocumentTitle(view.kind === "valid" ? `Join ${view.tenantName}` : "Invitation");
  return (
    <div className="min-h-screen bg-background">
      <header className="border-b bg-card">
        <div className="mx-auto flex h-16 max-w-6xl items-center px-4 sm:px-6">
          <Logo />
        </div>
      </header>
      <main className="mx-auto flex max-w-md flex-col px-4 py-8 sm:px-6">
        {view.kind === "closed" ? (
          <Card>
            <CardHeader>
              <MailWarningIcon className="size-8 text-muted-foreground" aria-hidden="true" />
              <CardTitle as="h1" className="text-xl">
                {view.title}
              </CardTitle>
              <CardDescription>{view.message}</CardDescription>
            </CardHeader>
            <CardContent>
              <Button variant="outline" asChild className="w-full">
                <a href="/">Go to sign-in</a>
              </Button>
            </CardContent>
          </Card>
        ) : (
          <ValidInvitation token={token} view={view} signedInEmail={signedInEmail} />
        )}
      </main>
    </div>
  );
}

function ValidInvitation({
  token,
  view,
  signedInEmail,
}: {
  token: string;
  view: Extract<InvitationView, { kind: "valid" }>;
  signedInEmail: string | null;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h1" className="text-xl">
          Join {view.tenantName} on Palisade
        </CardTitle>
        <CardDescription>
          {view.inviterName} invited {view.email} to {view.tenantName}.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-muted-foreground">Tenant</dt>
          <dd className="break-words font-medium">{view.tenantName}</dd>
          <dt className="text-muted-foreground">Invited by</dt>
          <dd className="break-words">{view.inviterName}</dd>
          <dt className="text-muted-foreground">Role</dt>
          <dd>{view.role}</dd>
          {view.expiresAt && (
            <>
              <dt className="text-muted-foreground">Expires</dt>
              {/* In the invitee's own time zone, the zone named. */}
              <dd>{formatDateTime(view.expiresAt)}</dd>
            </>
          )}
        </dl>
        <InvitationAction token={token} view={view} signedInEmail={signedInEmail} />
      </CardContent>
    </Card>
  );
}

function InvitationAction({
  token,
  view,
  signedInEmail,
}: {
  token: string;
  view: Extract<InvitationView, { kind: "valid" }>;
  signedInEmail: string | null;
}) {
  const navigate = useNavigate();
  const signOut = useSignOut();
  const accept = useAcceptInvitation(token);
  const [failure, setFailure] = useState<string | null>(null);

  if (signedInEmail && signedInEmail.toLowerCase() !== view.email) {
    return (
      <div className="space-y-4">
        <Alert variant="destructive">
          <AlertCircleIcon />
          <AlertTitle>Signed in with another address</AlertTitle>
          <AlertDescription>
            This invitation is for {view.email}, but you are signed in as {signedInEmail}. Sign out, then sign
            in as {view.email} to accept it.
          </AlertDescription>
        </Alert>
        <Button variant="outline" className="w-full" onClick={() => void signOut()}>
          Sign out
        </Button>
      </div>
    );
  }
  if (signedInEmail) {
    return (
      <div className="space-y-4">
        {failure && (
          <Alert variant="destructive">
            <AlertCircleIcon />
            <AlertTitle>Could not accept</AlertTitle>
            <AlertDescription>{failure}</AlertDescription>
          </Alert>
        )}
        <Button
          className="w-full"
          disabled={accept.isPending}
          onClick={async () => {
            setFailure(null);
            try {
              await accept.mutateAsync();
              enterTenant();
            } catch (error) {
              setFailure(errorText(error));
            }
          }}
        >
          {accept.isPending && <LoaderIcon className="animate-spin" />}
          {accept.isPending ? "Accepting..." : "Accept"}
        </Button>
      </div>
    );
  }
  if (view.hasAccount) {
    return (
      <div className="space-y-3">
        <p className="text-sm text-muted-foreground">
          You already have a Palisade account as {view.email}. Sign in, then accept the invitation.
        </p>
        <Button
          className="w-full"
          onClick={() => navigate({ to: "/", search: { redirect: { path: `/invite/${token}` } } })}
        >
          Sign in to accept
        </Button>
      </div>
    );
  }
  return (
    <div className="space-y-3">
      <p className="text-sm text-muted-foreground">
        Choose your name and a password to create your account. <PasswordRules />
      </p>
      <NewAccountForm token={token} email={view.email} tenantName={view.tenantName} onJoined={enterTenant} />
    </div>
  );
}

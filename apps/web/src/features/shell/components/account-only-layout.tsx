import { TransportProvider } from "@connectrpc/connect-query";
import { FileKeyIcon, LogOutIcon, ShieldCheckIcon, UserPlusIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Logo } from "@/components/logo";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { appTransport } from "@/lib/transport";
import { useSignOut } from "@/lib/use-sign-out";
import { SessionGuard } from "./session-guard";

/**
 * The signed-in area for someone who can use only their own account: a member of no tenant yet,
 * one whose role shows nothing of the tenant, or one who must set up two-factor authentication
 * first. Their account page (or the set-up page), what to do, and sign-out.
 */
export function AccountOnlyLayout({
  reason,
  children,
}: {
  reason: "no-tenant" | "blocked" | "mfa-setup";
  children: ReactNode;
}) {
  const signOut = useSignOut();
  return (
    <TransportProvider transport={appTransport}>
      <div className="min-h-screen bg-background">
        <header className="sticky top-0 z-30 flex h-16 items-center gap-3 border-b bg-card/95 px-4 backdrop-blur sm:px-6">
          <Logo />
          <div className="flex-1" />
          <Button variant="outline" onClick={() => void signOut()}>
            <LogOutIcon />
            Sign out
          </Button>
        </header>
        <main id="main-content" className="mx-auto w-full max-w-7xl space-y-6 px-4 py-6 sm:px-6 lg:px-8">
          {reason === "mfa-setup" ? (
            <Alert>
              <ShieldCheckIcon />
              <AlertTitle>Your tenant requires two-factor authentication</AlertTitle>
              <AlertDescription>
                <p>
                  Set up an authenticator app to continue: scan the QR code, keep the backup codes, and enter
                  the app's code. From then on, signing in asks for that code after your password. Have a
                  passkey? Sign out and sign in with it instead.
                </p>
              </AlertDescription>
            </Alert>
          ) : (
            <Alert>
              <UserPlusIcon />
              <AlertTitle>
                {reason === "no-tenant"
                  ? "You are not a member of any tenant yet"
                  : "Your role gives no access to this tenant's pages"}
              </AlertTitle>
              <AlertDescription>
                <p>
                  {reason === "no-tenant"
                    ? "Ask an administrator of your organisation to invite you: the invitation e-mail adds you to their tenant with a role. Until then you can manage your account here."
                    : "Ask an administrator of your tenant for a role that can see its policies and events (Viewer or above). Until then you can manage your account here."}
                </p>
                <p className="flex items-center gap-1.5">
                  <FileKeyIcon className="size-4 shrink-0" aria-hidden="true" />
                  <span>
                    Only need a waiver?{" "}
                    <a href="/req" className="font-medium text-primary underline underline-offset-2">
                      Request one with the policy key
                    </a>{" "}
                    from the deny message.
                  </span>
                </p>
              </AlertDescription>
            </Alert>
          )}
          {children}
        </main>
      </div>
      <SessionGuard />
    </TransportProvider>
  );
}

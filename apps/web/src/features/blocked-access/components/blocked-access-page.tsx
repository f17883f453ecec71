import { Link } from "@tanstack/react-router";
import { FileKeyIcon, LogOutIcon, ShieldOffIcon, UserCogIcon, UserPlusIcon } from "lucide-react";
import { Logo } from "@/components/logo";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useDocumentTitle } from "@/lib/use-document-title";
import { useSignOut } from "@/lib/use-sign-out";

export function BlockedAccessPage({ signedInAs }: { signedInAs: string | null }) {
  useDocumentTitle("No access");
  const signOut = useSignOut();
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-8 bg-background px-4 py-12">
      <Logo />
      <Card className="w-full max-w-xl">
        <CardHeader>
          <div className="mb-2 flex size-11 items-center justify-center rounded-full bg-destructive/10 text-destructive">
            <ShieldOffIcon className="size-5" aria-hidden="true" />
          </div>
          <CardTitle as="h1" className="text-xl">
            You don't have access to this area
          </CardTitle>
          <CardDescription>
            {signedInAs ? <>You are signed in as {signedInAs}, but</> : "Your account"} is either not a member
            of any tenant yet, or your role in the tenant grants no access to the policies, events and
            settings shown here.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-6">
          <ul className="space-y-4 text-sm">
            <li className="flex gap-3">
              <UserPlusIcon className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
              <span>
                <strong className="font-medium">Ask an administrator of your tenant</strong> to invite you, or
                to change your role to one that can see this area (Viewer or above).
              </span>
            </li>
            <li className="flex gap-3">
              <FileKeyIcon className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
              <span>
                <strong className="font-medium">Only need a waiver?</strong> Engineers who request waivers
                don't need this area: use the{" "}
                <a href="/req" className="font-medium text-primary underline underline-offset-2">
                  waiver request page
                </a>{" "}
                with the policy key from the deny message.
              </span>
            </li>
          </ul>
          <div className="flex flex-wrap gap-2">
            {signedInAs ? (
              <>
                <Button asChild variant="outline">
                  <Link to="/account">
                    <UserCogIcon />
                    Your account
                  </Link>
                </Button>
                <Button onClick={() => void signOut()}>
                  <LogOutIcon />
                  Sign in with another account
                </Button>
              </>
            ) : (
              <Button asChild>
                <Link to="/">Sign in</Link>
              </Button>
            )}
          </div>
        </CardContent>
      </Card>
    </main>
  );
}

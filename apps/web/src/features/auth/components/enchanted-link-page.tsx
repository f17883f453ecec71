import { Link } from "@tanstack/react-router";
import { CircleCheckIcon, CircleXIcon, LinkIcon, LoaderIcon } from "lucide-react";
import { useState } from "react";
import { Logo } from "@/components/logo";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { authFailureText } from "@/lib/auth-error";
import { linkSignIn } from "@/lib/auth-methods-client";
import { useDocumentTitle } from "@/lib/use-document-title";

type Outcome =
  | { name: "ready" }
  | { name: "busy" }
  | { name: "confirmed" }
  | { name: "wrong-number" }
  | { name: "invalid" }
  | { name: "failed"; message: string };

const HEADINGS: Record<Outcome["name"], string> = {
  ready: "Confirm your sign-in",
  busy: "Confirm your sign-in",
  confirmed: "You're signed in on the other tab",
  "wrong-number": "That was not the number shown",
  invalid: "This link no longer works",
  failed: "Confirm your sign-in",
};

const DESCRIPTIONS: Record<Outcome["name"], string> = {
  ready:
    "Confirm only if this link's number is the one shown on the page where you asked to sign in. That page then signs in; this one does not.",
  busy: "Confirming...",
  confirmed: "You can close this one.",
  "wrong-number": "Nothing was signed in. Request a new link on the sign-in page.",
  invalid:
    "A link works once and for 10 minutes; this one has expired, was already used, or another link of the same e-mail was opened. Request a new link on the sign-in page.",
  failed: "The sign-in was not confirmed.",
};

/**
 * The page an enchanted link opens. Its button confirms the link's number; the page that asked
 * for the links signs in, never this one. A mail scanner that fetches the link presses nothing.
 */
export function EnchantedLinkPage({ token }: { token: string }) {
  useDocumentTitle("Confirm sign-in");
  const [outcome, setOutcome] = useState<Outcome>(token ? { name: "ready" } : { name: "invalid" });

  async function confirm() {
    setOutcome({ name: "busy" });
    const { error } = await linkSignIn.verifyEnchantedLink(token);
    if (!error) return setOutcome({ name: "confirmed" });
    if (error.code === "WRONG_NUMBER") return setOutcome({ name: "wrong-number" });
    if (error.code === "INVALID_TOKEN") return setOutcome({ name: "invalid" });
    setOutcome({ name: "failed", message: authFailureText(error, undefined) });
  }

  const Icon =
    outcome.name === "confirmed" ? CircleCheckIcon : outcome.name === "ready" ? LinkIcon : CircleXIcon;
  const asking = outcome.name === "ready" || outcome.name === "busy" || outcome.name === "failed";
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-8 px-4 py-12">
      <Logo />
      <Card className="w-full max-w-sm">
        <CardHeader>
          {outcome.name !== "busy" && <Icon className="size-6 text-muted-foreground" aria-hidden="true" />}
          <CardTitle as="h1" className="text-xl">
            {HEADINGS[outcome.name]}
          </CardTitle>
          <CardDescription role={asking ? undefined : "status"}>
            {outcome.name === "failed" ? outcome.message : DESCRIPTIONS[outcome.name]}
          </CardDescription>
        </CardHeader>
        <CardContent>
          {asking ? (
            <Button className="w-full" disabled={outcome.name === "busy"} onClick={() => void confirm()}>
              {outcome.name === "busy" && <LoaderIcon className="animate-spin" />}
              {outcome.name === "busy" ? "Confirming..." : "Confirm sign-in"}
            </Button>
          ) : (
            outcome.name !== "confirmed" && (
              <Button asChild variant="outline" className="w-full">
                <Link to="/">Go to sign-in</Link>
              </Button>
            )
          )}
        </CardContent>
      </Card>
    </main>
  );
}

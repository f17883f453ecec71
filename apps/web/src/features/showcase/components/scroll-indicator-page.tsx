import { Link } from "@tanstack/react-router";
import { ArrowLeftIcon } from "lucide-react";
import { Logo } from "@/components/logo";
import { ScrollIndicator } from "@/components/scroll-indicator";
import { Button } from "@/components/ui/button";
import { useDocumentTitle } from "@/lib/use-document-title";

const paragraphs = Array.from({ length: 24 }, (_, index) => index + 1);

export function ScrollIndicatorPage() {
  useDocumentTitle("Scroll indicator");
  return (
    <div className="min-h-screen bg-background">
      <header className="border-b bg-card">
        <div className="mx-auto flex h-16 max-w-3xl items-center justify-between px-4 sm:px-6">
          <Logo />
          <Button variant="link" asChild>
            <Link to="/ui-components">
              <ArrowLeftIcon />
              All components
            </Link>
          </Button>
        </div>
      </header>
      <main className="mx-auto max-w-3xl space-y-6 px-4 py-8 sm:px-6">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight">Scroll indicator</h1>
          <p className="text-sm text-muted-foreground">
            The bar above the text shows how far the area below has been scrolled. Scroll it with the mouse,
            or focus it and use the arrow keys.
          </p>
        </div>
        <ScrollIndicator>
          <div className="space-y-4 text-sm leading-relaxed">
            {paragraphs.map((n) => (
              <p key={n}>
                <span className="font-semibold">Section {n}.</span> Guardrails are deployed per scope and
                evaluated by the cloud itself, so a denied action never reaches the resource. Waivers narrow a
                guardrail for a limited time and expire in the cloud even when Palisade is unavailable.
              </p>
            ))}
          </div>
        </ScrollIndicator>
      </main>
    </div>
  );
}

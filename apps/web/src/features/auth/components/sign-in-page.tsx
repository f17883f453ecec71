import { LockKeyholeIcon, ShieldCheckIcon, TimerResetIcon } from "lucide-react";
import { Logo } from "@/components/logo";
import { useDocumentTitle } from "@/lib/use-document-title";
import { SignInCard } from "./sign-in-card";
import { SignUpLink } from "./sign-up-link";

const highlights = [
  { icon: ShieldCheckIcon, text: "Deploy preventive guardrails to AWS and Azure from one catalogue." },
  { icon: TimerResetIcon, text: "Grant time-limited waivers that expire in the cloud on their own." },
  { icon: LockKeyholeIcon, text: "See every prevented action, alert and drift in one place." },
];

/** A denied engineer needs no account: the waiver page takes the policy key from the deny message. */
function WaiverRequestLink({ className, linkClassName }: { className: string; linkClassName: string }) {
  return (
    <p className={className}>
      Only need a waiver?{" "}
      <a href="/req" className={`font-medium underline underline-offset-2 ${linkClassName}`}>
        Request one with your policy key
      </a>
    </p>
  );
}

export function SignInPage({ redirectPath }: { redirectPath: string | undefined }) {
  useDocumentTitle("Sign in");
  return (
    <div className="grid min-h-screen lg:grid-cols-2">
      <section className="hidden flex-col justify-between bg-sidebar p-10 text-sidebar-foreground lg:flex">
        <Logo inverted />
        <div className="max-w-md space-y-6">
          <h2 className="text-3xl font-semibold tracking-tight text-white">
            Guardrails that stop risky changes before they happen.
          </h2>
          <ul className="space-y-4">
            {highlights.map(({ icon: Icon, text }) => (
              <li key={text} className="flex gap-3 text-sm">
                <Icon className="mt-0.5 size-5 shrink-0 text-blue-300" aria-hidden="true" />
                {text}
              </li>
            ))}
          </ul>
        </div>
        <WaiverRequestLink className="text-xs opacity-80" linkClassName="text-white" />
      </section>
      <main className="flex flex-col items-center justify-center gap-8 px-4 py-12">
        <Logo className="lg:hidden" />
        <SignInCard redirectPath={redirectPath} />
        <SignUpLink />
        {/* The side panel that carries it on wide screens is hidden on phones. */}
        <WaiverRequestLink
          className="text-center text-sm text-muted-foreground lg:hidden"
          linkClassName="text-primary"
        />
      </main>
    </div>
  );
}

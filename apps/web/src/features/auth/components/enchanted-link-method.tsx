import { LoaderIcon } from "lucide-react";
import { useEffect, useState } from "react";
import { type EnchantedLinkPendingSession, linkSignIn } from "@/lib/auth-methods-client";
import { type PendingAnswer, waitForPendingSignIn } from "../pending-sign-in";
import { needsSecondFactor, SecondFactorStep } from "./second-factor-step";
import { SendFailure, SendLinkButton, useLinkSender } from "./send-link-panel";
import type { SignInMethodProps } from "./sign-in-methods";

type SignedIn = Exclude<EnchantedLinkPendingSession, { status: "waiting" | "refused" | "expired" }>;

/** The server's answer about the pending sign-in, as the wait reads it. */
async function askPendingSession(pendingRef: string): Promise<PendingAnswer<SignedIn>> {
  const { data } = await linkSignIn.enchantedLinkPendingSession(pendingRef);
  if (!data) return undefined;
  if ("twoFactorRedirect" in data || data.status === "signed-in") return { status: "done", value: data };
  return { status: data.status };
}

type Stage =
  | { name: "idle" }
  | { name: "waiting"; pendingRef: string; number: number }
  | { name: "refused" }
  | { name: "timed-out" }
  | { name: "second-factor" };

/**
 * The enchanted link: this page shows a number and the e-mail holds three numbered links. The
 * link with this number, opened anywhere, signs this page in; it asks once a second for ten
 * minutes.
 */
export function EnchantedLinkMethod({ email, chosen, onSignedIn }: SignInMethodProps) {
  const [stage, setStage] = useState<Stage>({ name: "idle" });
  const sender = useLinkSender(
    chosen,
    (options) => linkSignIn.sendEnchantedLink(email, options),
    ({ pendingRef, number }) => setStage({ name: "waiting", pendingRef, number }),
  );

  const pendingRef = stage.name === "waiting" ? stage.pendingRef : undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: one wait per request; onSignedIn leaves the page
  useEffect(() => {
    if (!pendingRef) return;
    const leaving = new AbortController();
    void waitForPendingSignIn(() => askPendingSession(pendingRef), { signal: leaving.signal }).then(
      async (outcome) => {
        if (outcome.kind === "cancelled") return;
        if (outcome.kind !== "done")
          return setStage(outcome.kind === "refused" ? { name: "refused" } : { name: "timed-out" });
        if (needsSecondFactor(outcome.value)) return setStage({ name: "second-factor" });
        if ("user" in outcome.value) await onSignedIn(outcome.value.user, "enchanted-link");
      },
    );
    return () => leaving.abort();
  }, [pendingRef]);

  if (stage.name === "second-factor")
    return <SecondFactorStep method="enchanted-link" onSignedIn={onSignedIn} />;

  const ended =
    stage.name === "refused"
      ? "A link with another number was opened, so nothing was signed in. Send a new link and open the one with the number shown here."
      : stage.name === "timed-out"
        ? "No link was opened within 10 minutes, so nothing was signed in. Send a new link to try again."
        : null;

  return (
    <div className="space-y-4">
      {sender.failure ? (
        <SendFailure text={sender.failure} />
      ) : (
        <SendFailure title="Not signed in" text={ended} />
      )}
      {stage.name === "waiting" ? (
        <div className="space-y-3">
          <output
            aria-label="Number to choose"
            className="block text-center font-mono text-5xl font-semibold tracking-widest"
          >
            {stage.number}
          </output>
          <p className="text-sm text-muted-foreground" role="status">
            If {email} has a Palisade account, an e-mail with three numbered links is on its way. Open the
            link numbered {stage.number}: this page then signs in by itself. The links work for 10 minutes.
          </p>
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <LoaderIcon className="size-4 animate-spin" aria-hidden="true" /> Waiting for the link...
          </p>
        </div>
      ) : (
        !ended && (
          <p className="text-sm text-muted-foreground">
            We e-mail you three numbered links. Open the one with the number shown here, on any device, and
            this page signs in; no password needed.
          </p>
        )
      )}
      <SendLinkButton sender={sender} sent={stage.name !== "idle"} label="Send me a link to confirm" />
    </div>
  );
}

import { lazy, Suspense, useEffect, useState } from "react";
import { Logo } from "@/components/logo";
import { fetchSession } from "@/lib/auth-context";
import { logger } from "@/lib/logger";
import { useDebouncedValue } from "@/lib/use-debounced-value";
import { useDocumentTitle } from "@/lib/use-document-title";
import { displayName } from "@/lib/user-display";
import { type CreatedWaiverJson, forgetBundleOfKey, useCreateWaiver } from "../api/waiver-request-queries";
import { useWaiverRequestForm } from "../forms/use-waiver-request-form";
import { clearWaiverDraft, draftWithKey, readWaiverDraft, saveWaiverDraft } from "../forms/waiver-draft";
import type { WaiverRequestValues } from "../forms/waiver-request-schema";
import { type WaiverFailure, waiverFailureOf } from "../waiver-failure";
import { PolicyInfoCard } from "./policy-info-card";
import { WaiverRequestForm } from "./waiver-request-form";

const lookupDebounceMs = 300;

/** The sign-in page, which brings the visitor back here once signed in (its `redirect` search parameter). */
const signInThenBack = `/?redirect=${encodeURIComponent(JSON.stringify({ path: "/req" }))}`;

// The dialog only matters after a failed submit, so it is not part of the page's first load.
const WaiverFailureDialog = lazy(() =>
  import("./waiver-failure-dialog").then((m) => ({ default: m.WaiverFailureDialog })),
);
// Shown once a waiver is requested.
const WaiverOutcomeCard = lazy(() =>
  import("./waiver-outcome-card").then((m) => ({ default: m.WaiverOutcomeCard })),
);
// Asked only of a signed-out visitor who presses Submit.
const RequesterSignInDialog = lazy(() =>
  import("./requester-sign-in-dialog").then((m) => ({ default: m.RequesterSignInDialog })),
);

export function WaiverRequestPage({ userName, initialKey }: { userName: string | null; initialKey: string }) {
  useDocumentTitle("Request a waiver");
  // The address a signed-out visitor signed in with, by an e-mailed code on this page.
  const [signedInHere, setSignedInHere] = useState<string | null>(null);
  const [pendingSignIn, setPendingSignIn] = useState<WaiverRequestValues | null>(null);
  const signedIn = userName !== null || signedInHere !== null;
  // The form as it was before a reload, or before a signed-out visitor left for the sign-in page.
  const [draft] = useState(readWaiverDraft);
  const form = useWaiverRequestForm(draftWithKey(draft, initialKey));
  const createWaiver = useCreateWaiver();
  const [created, setCreated] = useState<CreatedWaiverJson | null>(null);
  const [failure, setFailure] = useState<WaiverFailure | null>(null);
  const [scopeLabel, setScopeLabel] = useState("");
  const typedKey = form.values.policyKey;
  const debouncedKey = useDebouncedValue(typedKey, lookupDebounceMs);

  // Kept in this tab as it is typed, so a reload keeps it; removed once the waiver is requested.
  useEffect(() => {
    if (!created) saveWaiverDraft(form.values);
  }, [form.values, created]);

  function signInFirst() {
    saveWaiverDraft(form.values);
    // The sign-in page belongs to the signed-in app, which this page's entry does not load.
    window.location.assign(signInThenBack);
  }

  async function submit(values: WaiverRequestValues) {
    if (!signedIn) {
      setPendingSignIn(values);
      return;
    }
    await send(values);
  }

  async function send(values: WaiverRequestValues) {
    try {
      setCreated(await createWaiver(values));
      clearWaiverDraft();
    } catch (error) {
      const next = waiverFailureOf(error);
      if (next.kind === "sign-in") return signInFirst();
      logger.error("Waiver request failed", error, next);
      // The card shows the policy as it is now, not as it was looked up before the refusal.
      forgetBundleOfKey(values.policyKey);
      setFailure(next);
    }
  }

  return (
    <div className="min-h-screen bg-background">
      <header className="border-b bg-card">
        <div className="mx-auto flex h-16 max-w-6xl items-center px-4 sm:px-6">
          <Logo />
        </div>
      </header>
      <main className="mx-auto max-w-6xl space-y-6 px-4 py-8 sm:px-6">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight">
            Welcome {userName ?? signedInHere ?? "Guest"}
          </h1>
          <p className="text-sm text-muted-foreground">
            Blocked by a guardrail? Request a time-limited waiver with the policy key from the deny message.
          </p>
        </div>
        {created ? (
          <Suspense fallback={null}>
            <WaiverOutcomeCard
              created={created}
              scopeName={scopeLabel}
              onAnother={() => {
                form.reset();
                setScopeLabel("");
                setCreated(null);
              }}
            />
          </Suspense>
        ) : (
          <div className="grid gap-6 md:grid-cols-[minmax(0,1fr)_minmax(0,22rem)] lg:grid-cols-[minmax(0,1fr)_minmax(0,26rem)]">
            <div className="order-2 md:order-1">
              <WaiverRequestForm
                form={form}
                onSubmit={submit}
                signedIn={signedIn}
                debouncedKey={debouncedKey}
                onScopeLabel={setScopeLabel}
              />
            </div>
            <aside className="order-1 md:order-2" aria-label="Policy information">
              <PolicyInfoCard typedKey={typedKey} debouncedKey={debouncedKey} />
            </aside>
          </div>
        )}
      </main>
      {pendingSignIn && (
        <Suspense fallback={null}>
          <RequesterSignInDialog
            policyKey={pendingSignIn.policyKey}
            onSignedIn={async (email) => {
              const values = pendingSignIn;
              setSignedInHere(email);
              setPendingSignIn(null);
              // The name the account holds, once the new session can be read; the e-mail until then.
              void fetchSession()
                .then(
                  (session) => session && setSignedInHere(displayName({ name: session.user.name }) || email),
                )
                .catch(() => {});
              await send(values);
            }}
            onSignInElsewhere={() => {
              // Closed first, so it does not stay over the sign-in page while that one loads.
              setPendingSignIn(null);
              signInFirst();
            }}
            onClose={() => setPendingSignIn(null)}
          />
        </Suspense>
      )}
      {failure && (
        <Suspense fallback={null}>
          <WaiverFailureDialog failure={failure} onClose={() => setFailure(null)} />
        </Suspense>
      )}
    </div>
  );
}

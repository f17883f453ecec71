import { POLICY_KEY_LENGTH } from "@palisade/policy-engine/keys/policy-key";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { ScreenErrorBoundary } from "@/components/screen-error-boundary";
import { preloadPolicyCard } from "@/features/waivers/components/policy-info-card";
import { preloadScopePicker } from "@/features/waivers/components/waiver-request-form";
import { WaiverRequestPage } from "@/features/waivers/components/waiver-request-page";
import { prefilledPolicyKey } from "@/features/waivers/waiver-request-link";
import { fetchSession } from "@/lib/auth-context";
import { adoptStyleNonce } from "@/lib/style-nonce";
import { displayName } from "@/lib/user-display";
import "./styles.css";

// The public waiver page (/req) is its own entry: a requester's first load carries the form and
// React, not the router, the query library and the signed-in app.
adoptStyleNonce();

const root = document.getElementById("root");
if (!root) throw new Error("The page has no #root element");

const initialKey = prefilledPolicyKey(window.location.search);
// With a key in the address, the first render waits for the code of what a found key shows, and
// briefly for the key's policy, as well as for the session: rendered before its code, that part
// would show a placeholder, and React holds back what replaces a placeholder for up to 300 ms.
const keyPartsLoaded =
  initialKey.length === POLICY_KEY_LENGTH
    ? Promise.all([preloadPolicyCard(initialKey), preloadScopePicker()])
    : undefined;

void Promise.all([fetchSession().catch(() => null), keyPartsLoaded]).then(([session]) => {
  const userName = session ? displayName({ name: session.user.name }) || session.user.email : null;
  createRoot(root).render(
    <StrictMode>
      <ScreenErrorBoundary>
        <WaiverRequestPage userName={userName} initialKey={initialKey} />
      </ScreenErrorBoundary>
    </StrictMode>,
  );
});

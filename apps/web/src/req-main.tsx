import { POLICY_KEY_LENGTH } from "@palisade/policy-engine/keys/policy-key";
import { createRoot } from "react-dom/client";
import { seedPolicyOfKey } from "@/features/waivers/api/waiver-request-queries";
import { preloadPolicyCard } from "@/features/waivers/components/policy-info-card";
import { preloadScopePicker } from "@/features/waivers/components/waiver-request-form";
import { readWaiverDraft } from "@/features/waivers/forms/waiver-draft";
import { readWaiverPageData, userNameOf } from "@/features/waivers/waiver-page-data";
import { prefilledPolicyKey } from "@/features/waivers/waiver-request-link";
import { afterFirstPaint } from "@/lib/after-first-paint";
import { fetchSession } from "@/lib/auth-context";
import { takeOverServerPage } from "@/lib/input-before-takeover";
import { adoptStyleNonce } from "@/lib/style-nonce";
import { preloadFoundKeyCode, waiverRequestRoot } from "./req-page";
import "./styles.css";

// The public waiver page (/req) is its own entry: a requester's first load carries the form and
// React, not the router, the query library and the signed-in app.
adoptStyleNonce();

const root = document.getElementById("root");
if (!root) throw new Error("The page has no #root element");

const initialKey = prefilledPolicyKey(window.location.search);
// What the server rendered the page with (see req-server.tsx); absent where it did not.
const rendered = readWaiverPageData();

if (rendered) {
  if (rendered.bundle) seedPolicyOfKey(initialKey, rendered.bundle, rendered.definition);
  // A draft from before a reload fills the form differently from the server's page: rendered anew.
  const asRendered = readWaiverDraft() === null;
  // The parts a found key shows are here before the first render, as they were on the server; the
  // page as the server sent it is on screen before its code takes it over.
  const foundKeyCode = rendered.bundle ? preloadFoundKeyCode() : undefined;
  void Promise.all([foundKeyCode, afterFirstPaint()]).then(() => {
    takeOverServerPage(root, waiverRequestRoot(rendered.userName, initialKey), {
      asRendered,
      name: "The waiver page",
    });
  });
} else {
  // With a key in the address, the first render waits for the code of what a found key shows, and
  // briefly for the key's policy, as well as for the session: rendered before its code, that part
  // would show a placeholder, and React holds back what replaces a placeholder for up to 300 ms.
  const keyPartsLoaded =
    initialKey.length === POLICY_KEY_LENGTH
      ? Promise.all([preloadPolicyCard(initialKey), preloadScopePicker()])
      : undefined;
  void Promise.all([fetchSession().catch(() => null), keyPartsLoaded]).then(([session]) => {
    createRoot(root).render(waiverRequestRoot(userNameOf(session), initialKey));
  });
}

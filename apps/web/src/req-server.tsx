import type { ConnectProcedure } from "@palisade/api/connect-get";
import { POLICY_KEY_LENGTH } from "@palisade/policy-engine/keys/policy-key";
import { renderToString } from "react-dom/server";
import { seedPolicyOfKey } from "@/features/waivers/api/waiver-request-queries";
import type { BundleByKeyJson, DefinitionBySlugJson } from "@/features/waivers/api/waiver-rpc";
import { userNameOf, type WaiverPageData, waiverPageDataScript } from "@/features/waivers/waiver-page-data";
import { prefilledPolicyKey } from "@/features/waivers/waiver-request-link";
import { isSessionData } from "@/lib/auth-context";
import { clearRemoteReads } from "@/lib/use-remote-read";
import { preloadFoundKeyCode, waiverRequestRoot } from "./req-page";

/**
 * The public waiver page rendered on the server (built by `vite build --ssr` into dist/.ssr), so that
 * a requester following a deny message's link sees the policy as soon as the HTML and its styles
 * arrive, before the page's code has loaded and run; the code then takes the page over as rendered.
 */

/** What the server reads for the page, as the browser would have asked it. */
export interface WaiverPageReads {
  /** The visitor's session, as `GET /api/auth/get-session` answers it (null without one). */
  session(): Promise<unknown>;
  /** A public call as the page sends it (JSON); undefined when it was refused or failed. */
  call(procedure: ConnectProcedure, message: Record<string, string>): Promise<unknown>;
}

// The parts a found key shows are loaded lazily in the browser; here they are loaded once, so each
// render is synchronous and shows them.
const codeLoaded = preloadFoundKeyCode();

async function readPageData(initialKey: string, reads: WaiverPageReads): Promise<WaiverPageData> {
  const key = initialKey.toUpperCase();
  const [session, found] = await Promise.all([
    reads.session().catch(() => null),
    key.length === POLICY_KEY_LENGTH
      ? reads.call("palisade.policy.v1.PolicyService/GetBundleByKey", { key }).catch(() => undefined)
      : undefined,
  ]);
  const userName = userNameOf(isSessionData(session) ? session : null);
  const bundle = found as BundleByKeyJson | undefined;
  if (!bundle?.key) return { userName };
  const definition = bundle.policySlug
    ? ((await reads
        .call("palisade.policy.v1.PolicyService/GetDefinitionBySlug", { slug: bundle.policySlug })
        .catch(() => undefined)) as DefinitionBySlugJson | undefined)
    : undefined;
  return { userName, bundle, ...(definition ? { definition } : {}) };
}

/** The page's HTML for the address's query (`search`), and the data block the browser renders it again from. */
export async function renderWaiverRequestPage(
  search: string,
  reads: WaiverPageReads,
): Promise<{ html: string; dataScript: string }> {
  const initialKey = prefilledPolicyKey(search);
  const [data] = await Promise.all([readPageData(initialKey, reads), codeLoaded]);
  // Seeded, rendered and cleared in one synchronous step: no other page's answers mix in.
  try {
    if (data.bundle) seedPolicyOfKey(initialKey, data.bundle, data.definition);
    const html = renderToString(waiverRequestRoot(data.userName, initialKey));
    return { html, dataScript: waiverPageDataScript(data) };
  } finally {
    clearRemoteReads();
  }
}

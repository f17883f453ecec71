import type { ConnectProcedure } from "@palisade/api/connect-get";
import { createMemoryHistory } from "@tanstack/react-router";
import { renderToString } from "react-dom/server";
import { type SignedInPageData, signedInPageDataScript } from "@/features/shell/signed-in-page-data";
import { createAuthContext, isSessionData } from "@/lib/auth-context";
import { createQueryClient } from "@/lib/query-client";
import { appRoot } from "./app";
import { firstReadsOf, seedFirstReads } from "./first-reads";
import { createAppRouter, pageShown } from "./router";

/**
 * The first screen of a signed-in page rendered on the server (built by `vite build --ssr` into
 * dist/.ssr), for the pages first-reads.ts names: the visitor sees the page as soon as its HTML and
 * styles arrive, before the app's code has loaded and run; the code then takes the page over as
 * rendered (main.tsx). The server reads what the page's first screen shows, as the browser would
 * have, with the visitor's session; anything else is read by the browser once the page is on screen.
 */

/** The procedures of a page's first reads (undefined for a page not rendered here): the server preloads them where it sends the page unrendered. */
export { firstReadsOf };

/** What the server reads for the page, as the browser would have asked it. */
export interface SignedInPageReads {
  /** The visitor's session, as `GET /api/auth/get-session` answers it (null without one). */
  session(): Promise<unknown>;
  /** A read as the page sends it (a Connect GET with the visitor's cookie): its JSON, or undefined when refused or failed. */
  get(procedure: ConnectProcedure): Promise<unknown>;
}

/**
 * The page's HTML at `url` (its path and query) and the data block the browser takes it over from,
 * or undefined for a page left to the browser: one the server does not render, a visitor without a
 * session or without access, a read that failed, a route that redirects or fails.
 */
export async function renderSignedInPage(
  url: string,
  reads: SignedInPageReads,
): Promise<{ html: string; dataScript: string } | undefined> {
  const path = url.split("?", 1)[0] ?? "/";
  const procedures = firstReadsOf(path);
  if (!procedures) return undefined;
  const [session, ...answers] = await Promise.all([
    reads.session().catch(() => null),
    ...procedures.map((procedure) => reads.get(procedure).catch(() => undefined)),
  ]);
  if (!isSessionData(session) || answers.some((answer) => answer === undefined)) return undefined;
  const data: SignedInPageData = {
    // What the app reads of a session, and no more: never its token, which its cookie keeps from scripts.
    session: {
      user: { id: session.user.id, email: session.user.email, name: session.user.name },
      session: {
        id: session.session.id,
        expiresAt: session.session.expiresAt,
        activeOrganizationId: session.session.activeOrganizationId ?? null,
      },
    },
    reads: Object.fromEntries(procedures.map((procedure, index) => [procedure, answers[index]])),
  };

  const queryClient = createQueryClient();
  try {
    if (!seedFirstReads(queryClient, path, data.reads)) return undefined;
    const router = createAppRouter(
      { queryClient, auth: createAuthContext(async () => data.session) },
      { history: createMemoryHistory({ initialEntries: [url] }) },
    );
    await router.load();
    if (!pageShown(router, path)) return undefined;
    return { html: renderToString(appRoot(queryClient, router)), dataScript: signedInPageDataScript(data) };
  } finally {
    queryClient.clear();
  }
}

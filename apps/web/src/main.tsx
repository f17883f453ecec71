import { createRoot } from "react-dom/client";
import { readSignedInPageData } from "@/features/shell/signed-in-page-data";
import { createAuthContext, fetchSession } from "@/lib/auth-context";
import { takeOverServerPage } from "@/lib/input-before-takeover";
import { logger } from "@/lib/logger";
import { createQueryClient } from "@/lib/query-client";
import { adoptStyleNonce } from "@/lib/style-nonce";
import { cn } from "@/lib/utils";
import { appRoot } from "./app";
import { createAppRouter, pageShown } from "./router";
import "./styles.css";

adoptStyleNonce();

// What the server rendered the page with (see app-server.tsx); absent where it did not.
const rendered = readSignedInPageData();

const queryClient = createQueryClient();
// The session the server rendered the page for is the first one the app asks for.
let renderedSession = rendered?.session;
const auth = createAuthContext(() => {
  const session = renderedSession;
  renderedSession = undefined;
  return session ? Promise.resolve(session) : fetchSession();
});
const router = createAppRouter({ queryClient, auth });

// The code of the page at the address loads now, beside the session check, rather than once the
// signed-in area has let the visitor in.
const [routesAtAddress] = router.getMatchedRoutes(window.location.pathname);
for (const route of routesAtAddress) void router.loadRouteChunk(route)?.catch(() => {});

// The class-name merger builds its tables on first use, which would otherwise fall within the
// page's first render; built now, while the page waits for its code and data.
setTimeout(() => cn(), 0);

const root = document.getElementById("root");
if (!root) throw new Error("The page has no #root element");

/**
 * A page the server rendered is on screen already: the app takes it over as rendered once it holds
 * what the server rendered it with (the first reads' answers in its cache, the page's code loaded
 * and its route resolved), so that its first render is the same page. Anything else is rendered anew.
 */
async function takeOverRenderedPage(data: NonNullable<typeof rendered>): Promise<boolean> {
  const { seedFirstReads } = await import("./first-reads");
  if (!seedFirstReads(queryClient, window.location.pathname, data.reads)) return false;
  await router.load();
  return pageShown(router, window.location.pathname);
}

if (!rendered) createRoot(root).render(appRoot(queryClient, router));
else
  void takeOverRenderedPage(rendered)
    .catch(() => false)
    .then((asRendered) => {
      if (asRendered) {
        // The router renders a page it takes over from the server as the server rendered it, without
        // the suspense boundaries it puts around a page of its own (as its own server rendering sets it).
        router.ssr = { manifest: undefined };
      } else logger.warn("The server's page could not be taken over as rendered: it is rendered anew");
      takeOverServerPage(root, appRoot(queryClient, router), { asRendered, name: "The page" });
    });

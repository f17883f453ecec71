import type { QueryClient } from "@tanstack/react-query";
import { createRouter, type ErrorComponentProps, type RouterHistory } from "@tanstack/react-router";
import { FallbackScreen } from "@/components/fallback-screen";
import { NotFound } from "@/components/not-found";
import { PagePending } from "@/components/page-pending";
import type { AuthContext } from "@/lib/auth-context";
import { pagePath } from "@/lib/page-path";
import { routerDefaults } from "@/lib/router-defaults";
import { routeTree } from "./routeTree.gen";

export interface RouterContext {
  queryClient: QueryClient;
  auth: AuthContext;
}

function EmbeddedFallback({ error }: ErrorComponentProps) {
  return <FallbackScreen error={error} embedded />;
}

/**
 * The app's router, on the browser's address; the server renders a page on an address of its own
 * (`onServer`), without restoring the scroll position, whose script the Content-Security-Policy
 * would refuse in the page and the browser's render would not have.
 */
export function createAppRouter(context: RouterContext, onServer?: { history: RouterHistory }) {
  return createRouter({
    routeTree,
    context,
    ...routerDefaults,
    ...(onServer ? { history: onServer.history, scrollRestoration: false } : {}),
    defaultErrorComponent: EmbeddedFallback,
    defaultNotFoundComponent: NotFound,
    defaultPendingComponent: PagePending,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

/** Whether a loaded router shows the page at `path` itself: not sent elsewhere, nothing failed or missing. */
export function pageShown(router: AppRouter, path: string): boolean {
  const { status, location, matches } = router.state;
  return (
    status === "idle" &&
    pagePath(location.pathname) === pagePath(path) &&
    matches.length > 1 &&
    matches.every((match) => match.status === "success")
  );
}

declare module "@tanstack/react-router" {
  interface Register {
    router: AppRouter;
  }
}

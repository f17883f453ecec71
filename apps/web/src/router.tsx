import type { QueryClient } from "@tanstack/react-query";
import { createRouter, type ErrorComponentProps } from "@tanstack/react-router";
import { FallbackScreen } from "@/components/fallback-screen";
import { NotFound } from "@/components/not-found";
import { PagePending } from "@/components/page-pending";
import type { AuthContext } from "@/lib/auth-context";
import { routerDefaults } from "@/lib/router-defaults";
import { routeTree } from "./routeTree.gen";

export interface RouterContext {
  queryClient: QueryClient;
  auth: AuthContext;
}

function EmbeddedFallback({ error }: ErrorComponentProps) {
  return <FallbackScreen error={error} embedded />;
}

export function createAppRouter(context: RouterContext) {
  return createRouter({
    routeTree,
    context,
    ...routerDefaults,
    defaultErrorComponent: EmbeddedFallback,
    defaultNotFoundComponent: NotFound,
    defaultPendingComponent: PagePending,
  });
}

declare module "@tanstack/react-router" {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}

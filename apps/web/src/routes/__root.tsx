import { createRootRouteWithContext, Outlet } from "@tanstack/react-router";
import { FallbackScreen } from "@/components/fallback-screen";
import { NotFound } from "@/components/not-found";
import type { RouterContext } from "@/router";

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  errorComponent: ({ error }) => <FallbackScreen error={error} />,
  notFoundComponent: NotFound,
});

import type { QueryClient } from "@tanstack/react-query";
import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { StrictMode } from "react";
import type { AppRouter } from "./router";

/** The signed-in app as the browser renders it (main.tsx) and the server renders its first screen (app-server.tsx). */
export function appRoot(queryClient: QueryClient, router: AppRouter) {
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>
  );
}

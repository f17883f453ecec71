import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createAuthContext } from "@/lib/auth-context";
import { createQueryClient } from "@/lib/query-client";
import { adoptStyleNonce } from "@/lib/style-nonce";
import { cn } from "@/lib/utils";
import { createAppRouter } from "./router";
import "./styles.css";

adoptStyleNonce();

const queryClient = createQueryClient();
const auth = createAuthContext();
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

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);

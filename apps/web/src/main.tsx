import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createAuthContext } from "@/lib/auth-context";
import { createQueryClient } from "@/lib/query-client";
import { createAppRouter } from "./router";
import "./styles.css";

// Components that add a style element at run time (a dialog's scroll lock) give it the page's
// nonce, which the Content-Security-Policy requires; they read it from this global.
const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content;
if (nonce) Object.assign(globalThis, { __webpack_nonce__: nonce });

const queryClient = createQueryClient();
const auth = createAuthContext();
const router = createAppRouter({ queryClient, auth });

const root = document.getElementById("root");
if (!root) throw new Error("The page has no #root element");

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);

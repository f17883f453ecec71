import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createAuthContext } from "@/lib/auth-context";
import { createQueryClient } from "@/lib/query-client";
import { adoptStyleNonce } from "@/lib/style-nonce";
import { createAppRouter } from "./router";
import "./styles.css";

adoptStyleNonce();

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

import { TransportProvider } from "@connectrpc/connect-query";
import type { ReactNode } from "react";
import { appTransport } from "@/lib/transport";
import { AppShell } from "./app-shell";

export function AuthenticatedLayout({ children }: { children: ReactNode }) {
  return (
    <TransportProvider transport={appTransport}>
      <AppShell>{children}</AppShell>
    </TransportProvider>
  );
}

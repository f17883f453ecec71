import { TransportProvider } from "@connectrpc/connect-query";
import type { ReactNode } from "react";
import { appTransport } from "@/lib/transport";
import { AppShell } from "./app-shell";
import { SessionGuard } from "./session-guard";

export function AuthenticatedLayout({ children }: { children: ReactNode }) {
  return (
    <TransportProvider transport={appTransport}>
      <AppShell>{children}</AppShell>
      <SessionGuard />
    </TransportProvider>
  );
}

import { type ConnectRouter, createRouterTransport, type Transport } from "@connectrpc/connect";
import { TransportProvider } from "@connectrpc/connect-query";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { configure } from "@testing-library/react";
import type { ReactNode } from "react";

// The first call through a router transport loads the codecs; on a busy machine it takes a second or more.
configure({ asyncUtilTimeout: 10_000 });

let current: Transport | undefined;

/**
 * The transport query options and mutations use in a test: it answers from the routes the test
 * last set with `serveRoutes`. Replace the app's transport with it through
 * `vi.mock("@/lib/transport", ...)`, as the query options hold the transport they were built with.
 */
export const routedTransport: Transport = {
  unary: (...args) => {
    if (!current) throw new Error("no routes: call serveRoutes first");
    return current.unary(...args);
  },
  stream: (...args) => {
    if (!current) throw new Error("no routes: call serveRoutes first");
    return current.stream(...args);
  },
};

/**
 * The app's transport module with every transport (the app's, and the one preloaded reads go
 * through) replaced by the routed one: `vi.mock("@/lib/transport", routedTransportModule)`.
 */
export async function routedTransportModule(importOriginal: () => Promise<typeof import("@/lib/transport")>) {
  return {
    ...(await importOriginal()),
    appTransport: routedTransport,
    preloadedReadTransport: routedTransport,
  };
}

/** Answers the app's calls with these in-memory service implementations. */
export function serveRoutes(routes: (router: ConnectRouter) => void): void {
  current = createRouterTransport(routes);
}

/** A query client as a test wants it: no retries (an error shows at once), nothing kept between tests. */
export function createTestQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
}

/** The providers a signed-in page runs under, with the routed transport. */
export function RpcProviders({ client, children }: { client: QueryClient; children: ReactNode }) {
  return (
    <TransportProvider transport={routedTransport}>
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </TransportProvider>
  );
}

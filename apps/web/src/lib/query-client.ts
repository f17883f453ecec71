import { type DefaultOptions, QueryClient } from "@tanstack/react-query";
import { retryDelay, shouldRetry } from "./read-retry";

const minute = 60_000;

export const queryClientDefaults = {
  queries: {
    gcTime: 5 * minute,
    staleTime: 30_000,
    retry: shouldRetry,
    retryDelay,
  },
  mutations: {
    retry: 0,
  },
} satisfies DefaultOptions;

export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: queryClientDefaults });
}

import { type DefaultOptions, QueryClient } from "@tanstack/react-query";

const minute = 60_000;

export function retryDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, 30_000);
}

export const queryClientDefaults = {
  queries: {
    gcTime: 5 * minute,
    staleTime: 30_000,
    retry: 2,
    retryDelay,
  },
  mutations: {
    retry: 0,
  },
} satisfies DefaultOptions;

export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: queryClientDefaults });
}

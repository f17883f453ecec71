import { describe, expect, it } from "vitest";
import { createQueryClient, queryClientDefaults, retryDelay } from "./query-client";

describe("query client defaults", () => {
  it("keeps data 5 minutes, treats it fresh for 30 s, retries reads twice and never mutations", () => {
    expect(queryClientDefaults.queries.gcTime).toBe(300_000);
    expect(queryClientDefaults.queries.staleTime).toBe(30_000);
    expect(queryClientDefaults.queries.retry).toBe(2);
    expect(queryClientDefaults.mutations.retry).toBe(0);
  });

  it.each([
    [0, 1000],
    [1, 2000],
    [2, 4000],
    [4, 16_000],
    [5, 30_000],
    [10, 30_000],
  ])("waits exponentially before retry %i: %i ms", (attempt, ms) => {
    expect(retryDelay(attempt)).toBe(ms);
  });

  it("applies the defaults to a new client", () => {
    const client = createQueryClient();
    expect(client.getDefaultOptions().queries?.staleTime).toBe(30_000);
    expect(client.getDefaultOptions().mutations?.retry).toBe(0);
  });
});

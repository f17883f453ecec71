import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { createQueryClient, queryClientDefaults } from "./query-client";
import { maxReadRetries, retryDelay, shouldRetry } from "./read-retry";
import { RpcError } from "./rpc-error";

describe("query client defaults", () => {
  it("keeps data 5 minutes, treats it fresh for 30 s, retries reads twice and never mutations", () => {
    expect(queryClientDefaults.queries.gcTime).toBe(300_000);
    expect(queryClientDefaults.queries.staleTime).toBe(30_000);
    expect(queryClientDefaults.queries.retry).toBe(shouldRetry);
    expect(maxReadRetries).toBe(2);
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

  it.each([
    ["an unreachable server", new ConnectError("unavailable", Code.Unavailable), [true, true, false]],
    ["a timeout", new ConnectError("Request timeout", Code.DeadlineExceeded), [true, true, false]],
    ["a server fault", new ConnectError("boom", Code.Internal), [true, true, false]],
    ["a network failure", new TypeError("Failed to fetch"), [true, true, false]],
    ["a missing record", new ConnectError("no such policy", Code.NotFound), [false, false, false]],
    ["a refusal", new ConnectError("no tenant", Code.PermissionDenied), [false, false, false]],
    ["a missing tenant", new ConnectError("no role", Code.FailedPrecondition), [false, false, false]],
    ["an expired session", new ConnectError("sign in", Code.Unauthenticated), [false, false, false]],
    ["an unknown key on the public page", new RpcError("not_found", "No policy"), [false, false, false]],
    ["an overloaded public page", new RpcError("unavailable", "busy"), [true, true, false]],
  ])("retries %s after failures 0, 1, 2: %j", (_name, error, expected) => {
    expect([0, 1, 2].map((failures) => shouldRetry(failures, error))).toEqual(expected);
  });

  it("applies the defaults to a new client", () => {
    const client = createQueryClient();
    expect(client.getDefaultOptions().queries?.staleTime).toBe(30_000);
    expect(client.getDefaultOptions().mutations?.retry).toBe(0);
  });
});

import { describe, expect, it } from "vitest";
import { callConnectJson } from "./connect-json";
import { RpcError } from "./rpc-error";

function fakeFetch(
  status: number,
  body: string,
  seen: { url?: string; init?: RequestInit } = {},
): typeof fetch {
  return async (url, init) => {
    seen.url = String(url);
    seen.init = init;
    return new Response(body, { status, headers: { "Content-Type": "application/json" } });
  };
}

describe("callConnectJson", () => {
  it("posts JSON to the method path and returns the answer", async () => {
    const seen: { url?: string; init?: RequestInit } = {};
    const answer = await callConnectJson<{ key: string }>(
      "palisade.policy.v1.PolicyService/GetBundleByKey",
      { key: "ABCDEFG" },
      { fetch: fakeFetch(200, '{"key":"ABCDEFG","policySlug":"deny-leave"}', seen) },
    );
    expect(answer).toEqual({ key: "ABCDEFG", policySlug: "deny-leave" });
    expect(seen.url).toBe("/palisade.policy.v1.PolicyService/GetBundleByKey");
    expect(seen.init?.method).toBe("POST");
    expect(seen.init?.body).toBe('{"key":"ABCDEFG"}');
    expect(new Headers(seen.init?.headers).get("Connect-Protocol-Version")).toBe("1");
  });

  it("sends a GET with the request in the address and no header of its own, as the page's head preloads it", async () => {
    const seen: { url?: string; init?: RequestInit } = {};
    await callConnectJson(
      "palisade.policy.v1.PolicyService/GetBundleByKey",
      { key: "ABCDEFG" },
      { get: true, fetch: fakeFetch(200, "{}", seen) },
    );
    expect(seen.url).toBe(
      "/palisade.policy.v1.PolicyService/GetBundleByKey?connect=v1&encoding=json&message=%7B%22key%22%3A%22ABCDEFG%22%7D",
    );
    expect(seen.init?.method).toBeUndefined();
    expect(seen.init?.body).toBeUndefined();
    expect(seen.init?.headers).toBeUndefined();
  });

  it.each([
    [404, '{"code":"not_found","message":"No policy has this key"}', "not_found", "No policy has this key"],
    [
      501,
      '{"code":"unimplemented","message":"palisade.waiver.v1.WaiverService.Create is not implemented"}',
      "unimplemented",
      "palisade.waiver.v1.WaiverService.Create is not implemented",
    ],
    [503, "<html>bad gateway</html>", "unavailable", "An unexpected error occurred"],
    [500, "", "unknown", "An unexpected error occurred"],
  ])("turns HTTP %i into an error with code and message", async (status, body, code, message) => {
    const error = await callConnectJson("a.B/C", {}, { fetch: fakeFetch(status, body) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RpcError);
    expect((error as RpcError).code).toBe(code);
    expect((error as RpcError).message).toBe(message);
  });

  it("fails with 'Request timeout' when the server does not answer in time", async () => {
    const hang: typeof fetch = (_url, init) =>
      new Promise((_resolve, reject) =>
        init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)),
      );
    const error = (await callConnectJson("a.B/C", {}, { fetch: hang, timeoutMs: 20 }).catch(
      (e: unknown) => e,
    )) as RpcError;
    expect(error.code).toBe("deadline_exceeded");
    expect(error.message).toBe("Request timeout");
  });

  it("reports a network failure as unavailable with the browser's message", async () => {
    const offline: typeof fetch = async () => {
      throw new TypeError("Failed to fetch");
    };
    const error = (await callConnectJson("a.B/C", {}, { fetch: offline }).catch(
      (e: unknown) => e,
    )) as RpcError;
    expect(error.code).toBe("unavailable");
    expect(error.message).toBe("Failed to fetch");
  });
});

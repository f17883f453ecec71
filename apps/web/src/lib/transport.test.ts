import { Code, ConnectError, createClient, type UnaryRequest, type UnaryResponse } from "@connectrpc/connect";
import { connectGetPath } from "@palisade/api/connect-get";
import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { describe, expect, it } from "vitest";
import { createPreloadedReadTransport, errorInterceptor, toConnectError } from "./transport";

type Next = (req: UnaryRequest) => Promise<UnaryResponse>;

function call(next: Next, timeoutMs: number, signal = new AbortController().signal) {
  const intercepted = errorInterceptor(timeoutMs)(next as never) as unknown as Next;
  return intercepted({ signal } as UnaryRequest);
}

const waitForAbort: Next = (req) =>
  new Promise((_resolve, reject) => {
    req.signal.addEventListener("abort", () => reject(req.signal.reason));
  });

describe("errorInterceptor", () => {
  it("fails a call that outlives the timeout with 'Request timeout'", async () => {
    const error = await call(waitForAbort, 20).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectError);
    expect((error as ConnectError).rawMessage).toBe("Request timeout");
    expect((error as ConnectError).code).toBe(Code.DeadlineExceeded);
  });

  it("lets a call that answers in time through untouched", async () => {
    const response = { stream: false, message: { ok: true } } as unknown as UnaryResponse;
    await expect(call(async () => response, 1000)).resolves.toBe(response);
  });

  it("keeps the caller's cancellation as cancellation, not a timeout", async () => {
    const controller = new AbortController();
    const pending = call(waitForAbort, 1000, controller.signal).catch((e: unknown) => e);
    controller.abort(new ConnectError("stopped", Code.Canceled));
    const error = (await pending) as ConnectError;
    expect(error.code).toBe(Code.Canceled);
    expect(error.rawMessage).toBe("stopped");
  });

  it("maps a deadline error from the transport to 'Request timeout'", async () => {
    const error = (await call(async () => {
      throw new ConnectError("deadline", Code.DeadlineExceeded);
    }, 1000).catch((e: unknown) => e)) as ConnectError;
    expect(error.rawMessage).toBe("Request timeout");
  });
});

describe("toConnectError", () => {
  it.each([
    [
      "a server error keeps its code and message",
      new ConnectError("No tenant", Code.PermissionDenied),
      Code.PermissionDenied,
      "No tenant",
    ],
    [
      "a failed fetch is a transport error",
      new TypeError("Failed to fetch"),
      Code.Unavailable,
      "Failed to fetch",
    ],
    ["an unknown error is internal", new RangeError("boom"), Code.Internal, "An unexpected error occurred"],
    ["a thrown string is internal", "oops", Code.Internal, "An unexpected error occurred"],
  ])("%s", (_name, input, code, message) => {
    const error = toConnectError(input);
    expect(error.code).toBe(code);
    expect(error.rawMessage).toBe(message);
  });
});

describe("signedOutInterceptor", () => {
  it("tells the listeners when a call answers unauthenticated, and passes the error on", async () => {
    const { signedOutInterceptor, onSignedOut } = await import("./transport");
    const { Code: Codes, ConnectError: Error_ } = await import("@connectrpc/connect");
    let told = 0;
    const stop = onSignedOut(() => {
      told += 1;
    });
    const failing = signedOutInterceptor()((async () => {
      throw new Error_("Your session has expired", Codes.Unauthenticated);
    }) as never) as unknown as (req: unknown) => Promise<unknown>;
    await expect(failing({})).rejects.toThrow("Your session has expired");
    expect(told).toBe(1);
    const denied = signedOutInterceptor()((async () => {
      throw new Error_("No", Codes.PermissionDenied);
    }) as never) as unknown as (req: unknown) => Promise<unknown>;
    await expect(denied({})).rejects.toThrow("No");
    expect(told).toBe(1);
    stop();
  });
});

describe("createPreloadedReadTransport", () => {
  it("sends a read as the Connect GET a page's head preloads: same address, same credentials, no headers", async () => {
    const seen: { url: string; init?: RequestInit }[] = [];
    const transport = createPreloadedReadTransport(async (input, init) => {
      seen.push({ url: String(input), init });
      return new Response(JSON.stringify({ permissions: [] }), {
        headers: { "content-type": "application/json" },
      });
    });
    await createClient(TenantService, transport).getCurrent({});
    expect(seen).toHaveLength(1);
    expect(seen[0]?.url).toBe(connectGetPath("palisade.tenant.v1.TenantService/GetCurrent", {}));
    // What `<link rel="preload" as="fetch" crossorigin="anonymous">` fetched: nothing else set.
    expect(Object.keys(seen[0]?.init ?? {}).sort()).toEqual(["credentials", "signal"]);
    expect(seen[0]?.init?.credentials).toBe("same-origin");
  });

  it("still sends a method with side effects as a POST with its headers", async () => {
    const seen: RequestInit[] = [];
    const transport = createPreloadedReadTransport(async (_input, init) => {
      seen.push(init ?? {});
      return new Response("{}", { headers: { "content-type": "application/json" } });
    });
    await createClient(TenantService, transport).updateSettings({});
    expect(seen[0]?.method).toBe("POST");
    expect(new Headers(seen[0]?.headers).get("content-type")).toBe("application/json");
  });
});

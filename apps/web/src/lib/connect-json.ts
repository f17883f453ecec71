import { type ConnectProcedure, connectGetPath } from "@palisade/api/connect-get";
import type {
  MethodName,
  RequestJson,
  ResponseJson,
  ServiceType,
  ServiceTypeName,
} from "./connect-json-types";
import { requestTimeoutMessage, requestTimeoutMs, unexpectedErrorMessage } from "./request-limits";
import { RpcError, type WireDetail } from "./rpc-error";

const httpStatusCodes: Record<number, string> = {
  400: "invalid_argument",
  401: "unauthenticated",
  403: "permission_denied",
  404: "unimplemented",
  408: "deadline_exceeded",
  409: "aborted",
  429: "unavailable",
  502: "unavailable",
  503: "unavailable",
  504: "unavailable",
};

interface CallOptions {
  /**
   * Sends the call as a Connect GET, for a method without side effects: with no header of its own,
   * so that an answer the page's head preloaded for the same address is used.
   */
  get?: boolean;
  signal?: AbortSignal;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/**
 * Calls a unary Connect method with the JSON encoding over plain fetch. The public waiver page uses this
 * instead of the generated client so that its first load stays small: the protobuf runtime and
 * descriptors are not needed to send three small JSON messages.
 */
export async function callConnectJson<Res>(
  path: ConnectProcedure,
  body: unknown,
  options: CallOptions = {},
): Promise<Res> {
  const timeoutMs = options.timeoutMs ?? requestTimeoutMs;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(
      options.get ? connectGetPath(path, body) : `/${path}`,
      options.get
        ? { credentials: "same-origin", signal }
        : {
            method: "POST",
            credentials: "same-origin",
            headers: {
              "Content-Type": "application/json",
              "Connect-Protocol-Version": "1",
              "Connect-Timeout-Ms": String(timeoutMs),
            },
            body: JSON.stringify(body),
            signal,
          },
    );
  } catch (error) {
    if (timeout.aborted) throw new RpcError("deadline_exceeded", requestTimeoutMessage);
    if (options.signal?.aborted) throw new RpcError("canceled", "The request was cancelled");
    throw new RpcError("unavailable", error instanceof Error ? error.message : unexpectedErrorMessage);
  }
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    parsed = null;
  }
  if (response.ok && parsed && typeof parsed === "object") return parsed as Res;
  const wire =
    parsed && typeof parsed === "object"
      ? (parsed as { code?: unknown; message?: unknown; details?: unknown })
      : {};
  const code = typeof wire.code === "string" ? wire.code : (httpStatusCodes[response.status] ?? "unknown");
  const message = typeof wire.message === "string" && wire.message ? wire.message : unexpectedErrorMessage;
  throw new RpcError(code, message, wireDetails(wire.details));
}

/** Standard or URL-safe base64, padded or not, as Connect allows for detail values. */
function base64Bytes(text: string): Uint8Array {
  const standard = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(standard.padEnd(Math.ceil(standard.length / 4) * 4, "="));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** The details of a Connect JSON error body: `[{ type, value: <base64 of the binary message> }]`. */
function wireDetails(details: unknown): WireDetail[] {
  if (!Array.isArray(details)) return [];
  return details.flatMap((detail: unknown) => {
    if (!detail || typeof detail !== "object") return [];
    const { type, value } = detail as { type?: unknown; value?: unknown };
    if (typeof type !== "string" || typeof value !== "string") return [];
    try {
      return [{ type, value: base64Bytes(value) }];
    } catch {
      return [];
    }
  });
}

/** "getBundleByKey" -> "GetBundleByKey": the method's name in the contract and in its URL path. */
function protoMethodName(method: string): string {
  return method.charAt(0).toUpperCase() + method.slice(1);
}

/**
 * The JSON client of one service, typed by the generated service (`typeof SomeService`, imported with
 * `import type` so the runtime and descriptors stay out of the bundle): method names, requests and
 * answers are checked against the contract. Its query keys have connect-query's shape.
 */
export function createJsonClient<S extends ServiceType>(service: ServiceTypeName<S>) {
  return {
    call<K extends MethodName<S>>(method: K, request: RequestJson<S, K>, options?: CallOptions) {
      return callConnectJson<ResponseJson<S, K>>(`${service}/${protoMethodName(method)}`, request, options);
    },
    /** The key of one query of the method, as connect-query builds it. */
    queryKey<K extends MethodName<S>>(method: K, input: RequestJson<S, K>) {
      return [
        "connect-query",
        { serviceName: service, methodName: protoMethodName(method), cardinality: "finite", input },
      ] as const;
    },
  };
}

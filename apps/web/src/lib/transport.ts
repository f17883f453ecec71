import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";

import { requestTimeoutMessage, requestTimeoutMs, unexpectedErrorMessage } from "./request-limits";

function isTimeout(error: unknown, signal: AbortSignal): boolean {
  if (error instanceof ConnectError && error.code === Code.DeadlineExceeded) return true;
  return signal.aborted && signal.reason instanceof DOMException && signal.reason.name === "TimeoutError";
}

function isNetworkFailure(error: unknown): error is TypeError {
  return error instanceof TypeError && /fetch|network|load failed/i.test(error.message);
}

/**
 * Turns whatever a call throws into a ConnectError a screen can show: a call that runs longer than
 * `timeoutMs` fails with 'Request timeout', a failed fetch stays a transport error, and anything else
 * that is not a ConnectError becomes an internal 'An unexpected error occurred'.
 */
export function errorInterceptor(timeoutMs = requestTimeoutMs): Interceptor {
  return (next) => async (req) => {
    const signal = AbortSignal.any([req.signal, AbortSignal.timeout(timeoutMs)]);
    try {
      return await next({ ...req, signal });
    } catch (error) {
      throw toConnectError(error, signal);
    }
  };
}

export function toConnectError(error: unknown, signal?: AbortSignal): ConnectError {
  if (signal && isTimeout(error, signal)) {
    return new ConnectError(requestTimeoutMessage, Code.DeadlineExceeded, undefined, undefined, error);
  }
  if (error instanceof ConnectError) return error;
  if (isNetworkFailure(error)) {
    return new ConnectError(error.message, Code.Unavailable, undefined, undefined, error);
  }
  return new ConnectError(unexpectedErrorMessage, Code.Internal, undefined, undefined, error);
}

type SignedOutListener = () => void;
const signedOutListeners = new Set<SignedOutListener>();

/**
 * Called whenever a call answers `unauthenticated` (the session ended or expired): the signed-in
 * area asks the user to sign in again and come back. Returns the function that stops listening.
 */
export function onSignedOut(listener: SignedOutListener): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

export function notifySignedOut(): void {
  for (const listener of signedOutListeners) listener();
}

/** Tells the signed-out listeners about an `unauthenticated` answer, and passes the error on. */
export function signedOutInterceptor(): Interceptor {
  return (next) => async (req) => {
    try {
      return await next(req);
    } catch (error) {
      if (error instanceof ConnectError && error.code === Code.Unauthenticated) notifySignedOut();
      throw error;
    }
  };
}

export function createAppTransport(fetchImpl: typeof fetch = (input, init) => fetch(input, init)) {
  return createConnectTransport({
    baseUrl: "/",
    useBinaryFormat: false,
    interceptors: [signedOutInterceptor(), errorInterceptor()],
    fetch: (input, init) => fetchImpl(input, { ...init, credentials: "same-origin" }),
  });
}

export const appTransport = createAppTransport();

/**
 * For the reads a page's head preloads (the server's page-preloads.ts): methods without side
 * effects are sent as Connect GETs, and a GET goes out exactly as the `<link rel="preload"
 * as="fetch" crossorigin="anonymous">` fetched it (same address, credentials `same-origin`, no
 * header of its own, default redirect mode), so that the browser hands the page the preloaded
 * answer instead of asking again. Same-origin GETs carry no Origin; the server accepts them on
 * the browser's `Sec-Fetch-Site: same-origin`.
 */
export function createPreloadedReadTransport(fetchImpl: typeof fetch = (input, init) => fetch(input, init)) {
  return createConnectTransport({
    baseUrl: "/",
    useBinaryFormat: false,
    useHttpGet: true,
    interceptors: [signedOutInterceptor(), errorInterceptor()],
    fetch: (input, init) =>
      init?.method === "GET"
        ? fetchImpl(input, { credentials: "same-origin", signal: init.signal })
        : fetchImpl(input, { ...init, credentials: "same-origin" }),
  });
}

export const preloadedReadTransport = createPreloadedReadTransport();

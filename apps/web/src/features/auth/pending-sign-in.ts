/** How often the page waiting for a link asks whether it was opened. */
export const PENDING_POLL_INTERVAL_MS = 1000;
/** When the page stops waiting: the links expire after ten minutes. */
export const PENDING_POLL_TIMEOUT_MS = 10 * 60 * 1000;

/** What the server answers about a pending sign-in; `undefined` when it could not be asked. */
export type PendingAnswer<T> =
  | { status: "waiting" }
  | { status: "refused" }
  | { status: "expired" }
  | { status: "done"; value: T }
  | undefined;

/** How the wait ended. */
export type PendingOutcome<T> =
  | { kind: "done"; value: T }
  /** A link with another number was opened: nothing was signed in. */
  | { kind: "refused" }
  /** No right link was opened in time (or the request is gone). */
  | { kind: "timed-out" }
  | { kind: "cancelled" };

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/**
 * Asks `ask` once a second until it answers anything but waiting, for at most ten minutes. A
 * failed request (offline, a 429) counts as waiting; the next second asks again.
 */
export async function waitForPendingSignIn<T>(
  ask: () => Promise<PendingAnswer<T>>,
  options: { signal?: AbortSignal; intervalMs?: number; timeoutMs?: number } = {},
): Promise<PendingOutcome<T>> {
  const { signal, intervalMs = PENDING_POLL_INTERVAL_MS, timeoutMs = PENDING_POLL_TIMEOUT_MS } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await pause(intervalMs, signal);
    if (signal?.aborted) return { kind: "cancelled" };
    if (Date.now() >= deadline) return { kind: "timed-out" };
    const answer = await ask().catch(() => undefined);
    if (signal?.aborted) return { kind: "cancelled" };
    if (!answer || answer.status === "waiting") continue;
    if (answer.status === "done") return { kind: "done", value: answer.value };
    return { kind: answer.status === "refused" ? "refused" : "timed-out" };
  }
}

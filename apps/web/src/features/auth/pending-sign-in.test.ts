import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  PENDING_POLL_INTERVAL_MS,
  PENDING_POLL_TIMEOUT_MS,
  type PendingAnswer,
  type PendingOutcome,
  waitForPendingSignIn,
} from "./pending-sign-in";

type Answer = PendingAnswer<string>;

describe("waitForPendingSignIn", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Starts a wait whose answers come from `answers` in turn (waiting once they run out). */
  function start(answers: Answer[], signal?: AbortSignal) {
    const ask = vi.fn(async (): Promise<Answer> => answers.shift() ?? { status: "waiting" });
    let outcome: PendingOutcome<string> | undefined;
    void waitForPendingSignIn(ask, { signal }).then((ended) => {
      outcome = ended;
    });
    return { ask, outcome: () => outcome };
  }

  it("asks once a second and ends with the session when the link is opened", async () => {
    const wait = start([{ status: "waiting" }, { status: "waiting" }, { status: "done", value: "session" }]);
    expect(wait.ask).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(PENDING_POLL_INTERVAL_MS);
    expect(wait.ask).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(PENDING_POLL_INTERVAL_MS);
    expect(wait.ask).toHaveBeenCalledTimes(2);
    expect(wait.outcome()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(PENDING_POLL_INTERVAL_MS);
    expect(wait.outcome()).toEqual({ kind: "done", value: "session" });
    await vi.advanceTimersByTimeAsync(10 * PENDING_POLL_INTERVAL_MS);
    expect(wait.ask).toHaveBeenCalledTimes(3);
  });

  it("keeps waiting through failed requests", async () => {
    const wait = start([undefined, undefined, { status: "done", value: "session" }]);
    await vi.advanceTimersByTimeAsync(3 * PENDING_POLL_INTERVAL_MS);
    expect(wait.outcome()).toEqual({ kind: "done", value: "session" });
  });

  it("ends as refused when another number was chosen", async () => {
    const wait = start([{ status: "refused" }]);
    await vi.advanceTimersByTimeAsync(PENDING_POLL_INTERVAL_MS);
    expect(wait.outcome()).toEqual({ kind: "refused" });
  });

  it("gives up after ten minutes without an answer, and no later", async () => {
    const wait = start([]);
    await vi.advanceTimersByTimeAsync(PENDING_POLL_TIMEOUT_MS - PENDING_POLL_INTERVAL_MS);
    expect(wait.outcome()).toBeUndefined();
    expect(wait.ask).toHaveBeenCalledTimes(PENDING_POLL_TIMEOUT_MS / PENDING_POLL_INTERVAL_MS - 1);
    await vi.advanceTimersByTimeAsync(PENDING_POLL_INTERVAL_MS);
    expect(wait.outcome()).toEqual({ kind: "timed-out" });
    expect(wait.ask).toHaveBeenCalledTimes(PENDING_POLL_TIMEOUT_MS / PENDING_POLL_INTERVAL_MS - 1);
  });

  it("ends as timed out when the server no longer knows the request", async () => {
    const wait = start([{ status: "waiting" }, { status: "expired" }]);
    await vi.advanceTimersByTimeAsync(2 * PENDING_POLL_INTERVAL_MS);
    expect(wait.outcome()).toEqual({ kind: "timed-out" });
  });

  it("stops asking when the page leaves or sends a new link", async () => {
    const leaving = new AbortController();
    const wait = start([], leaving.signal);
    await vi.advanceTimersByTimeAsync(2 * PENDING_POLL_INTERVAL_MS);
    leaving.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(wait.outcome()).toEqual({ kind: "cancelled" });
    await vi.advanceTimersByTimeAsync(10 * PENDING_POLL_INTERVAL_MS);
    expect(wait.ask).toHaveBeenCalledTimes(2);
  });
});

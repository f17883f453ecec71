import { AsyncLocalStorage } from "node:async_hooks";
import type { Logger } from "../logger";

/** Work held back until the answer of the request that caused it has been sent. */
const heldBack = new AsyncLocalStorage<(() => void)[]>();

/**
 * Runs work that only an address with an account causes (queueing its mail, writing its links)
 * once the answer has been sent: the answer, the same for every address, then takes as long
 * whether or not the address has an account, so its timing tells nothing about accounts (even
 * the processor time of that work is spent after it). Outside a request (the server calling the
 * identity layer itself) the work runs at once. A failure is logged; the person asks again, as for
 * a mail that never arrives.
 */
export function afterAnswer(logger: Logger, what: string, work: () => Promise<unknown>): void {
  const run = () => {
    work().catch((error: unknown) =>
      logger.error({ component: "auth", err: (error as Error).message }, `${what} failed after the answer`),
    );
  };
  const queue = heldBack.getStore();
  if (queue) queue.push(run);
  else run();
}

/** A queueing function whose work runs after the answer (see afterAnswer). */
export function queuedAfterAnswer<T>(
  logger: Logger,
  what: string,
  enqueue: (payload: T) => Promise<unknown>,
): (payload: T) => Promise<void> {
  return async (payload) => afterAnswer(logger, what, () => enqueue(payload));
}

/**
 * Handles a request with afterAnswer's work held back; `answered` runs it and is to be called
 * once the answer has been sent (or the connection has closed).
 */
export function holdingBackWork<T>(handle: () => Promise<T>): { result: Promise<T>; answered: () => void } {
  const queue: (() => void)[] = [];
  let released = false;
  return {
    result: heldBack.run(queue, handle),
    answered() {
      if (released) return;
      released = true;
      for (const run of queue.splice(0)) run();
    },
  };
}

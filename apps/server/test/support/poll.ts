/**
 * Reads until the value is truthy (a row found, a check passed) and answers it; after timeoutMs
 * fails naming what was awaited and the last value read.
 */
export function waitFor<T>(
  what: string,
  read: () => Promise<T | undefined | null | false>,
  timeoutMs?: number,
): Promise<T>;
/** Reads until done(value) holds and answers that value; after timeoutMs fails as above. */
export function waitFor<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs?: number,
): Promise<T>;
export async function waitFor<T>(
  what: string,
  read: () => Promise<T>,
  doneOrTimeoutMs?: ((value: T) => boolean) | number,
  timeoutMs?: number,
): Promise<T> {
  const done = typeof doneOrTimeoutMs === "function" ? doneOrTimeoutMs : Boolean;
  const limit = (typeof doneOrTimeoutMs === "number" ? doneOrTimeoutMs : timeoutMs) ?? 30_000;
  const deadline = Date.now() + limit;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${limit} ms waiting for ${what}; last value: ${JSON.stringify(value, bigints)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function bigints(_key: string, value: unknown) {
  return typeof value === "bigint" ? value.toString() : value;
}

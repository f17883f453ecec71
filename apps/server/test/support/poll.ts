/**
 * Reads until done(value) holds or timeoutMs has passed, and gives the last value read, for the
 * caller's assertion to name.
 */
export async function readUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Reads until done(value) holds and gives that value; fails with the last value read after timeoutMs. */
export async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 60_000,
): Promise<T> {
  const value = await readUntil(read, done, timeoutMs);
  if (!done(value)) throw new Error(`timed out; last value ${JSON.stringify(value, bigints)}`);
  return value;
}

function bigints(_key: string, value: unknown) {
  return typeof value === "bigint" ? value.toString() : value;
}

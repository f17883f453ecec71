/**
 * Runs work one at a time per key in this process: two runs for the same key (a bundle's sync,
 * a connector's fetch) never interleave; runs for different keys go in parallel. A failed run
 * does not stop the next one.
 */
export function createKeyedLock() {
  const tails = new Map<string, Promise<unknown>>();
  return function exclusive<T>(key: string, run: () => Promise<T>): Promise<T> {
    const previous = tails.get(key) ?? Promise.resolve();
    const next = previous.catch(() => {}).then(run);
    tails.set(key, next);
    void next
      .finally(() => {
        if (tails.get(key) === next) tails.delete(key);
      })
      .catch(() => {});
    return next;
  };
}

export type KeyedLock = ReturnType<typeof createKeyedLock>;

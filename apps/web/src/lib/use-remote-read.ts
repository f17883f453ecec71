import { useEffect, useEffectEvent, useState } from "react";
import { retryDelay, shouldRetry } from "./read-retry";

/** How long an answer is shown without asking again (the query client's staleTime). */
const freshMs = 30_000;

const answers = new Map<string, { at: number; data: unknown }>();
const inFlight = new Map<string, Promise<unknown>>();
/** The components showing a key, told when its answer is forgotten so they ask again. */
const forgetListeners = new Set<(key: string) => void>();

/**
 * Drops the answer of `key` and has every component showing it ask again: for an answer the
 * server has since contradicted (a policy deleted after the page looked it up).
 */
export function forgetRemoteRead(key: string): void {
  answers.delete(key);
  for (const listener of forgetListeners) listener(key);
}

export type RemoteRead<T> =
  | { isPending: true; isError: false; data: undefined; error: null }
  | { isPending: false; isError: true; data: undefined; error: unknown }
  | { isPending: false; isError: false; data: T; error: null };

const pending = { isPending: true, isError: false, data: undefined, error: null } as const;

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** One read of `key` at a time, however many components ask; retried as the query client retries. */
function read(key: string, load: () => Promise<unknown>): Promise<unknown> {
  const running = inFlight.get(key);
  if (running) return running;
  const attempt = async () => {
    for (let failures = 0; ; failures += 1) {
      try {
        const data = await load();
        answers.set(key, { at: Date.now(), data });
        return data;
      } catch (error) {
        if (!shouldRetry(failures, error)) throw error;
        await wait(retryDelay(failures));
      }
    }
  };
  const promise = attempt().finally(() => inFlight.delete(key));
  inFlight.set(key, promise);
  return promise;
}

/**
 * Holds `data` as the answer of `key`, read elsewhere: the answers a server-rendered page was
 * rendered with, so the browser's first render shows what the server's did.
 */
export function seedRemoteRead(key: string, data: unknown): void {
  answers.set(key, { at: Date.now(), data });
}

/** Drops every answer: the server renders each page from its own answers only. */
export function clearRemoteReads(): void {
  answers.clear();
}

/**
 * Starts the read of `key` before any component asks for it (the page's first lookups, while
 * React and the session are still loading); a component asking later gets the same answer.
 */
export function prefetchRemoteRead<T>(key: string, load: () => Promise<T>): Promise<T> {
  return read(key, load) as Promise<T>;
}

/**
 * A server read for the public waiver page, which has no query library on its first load: the
 * answer of `key` is shared by every component that asks for it and kept for the page's life,
 * asked again once older than 30 s. A `null` key asks nothing and stays pending.
 */
export function useRemoteRead<T>(key: string | null, load: () => Promise<T>): RemoteRead<T> {
  const [, setAnswered] = useState(0);
  const [failure, setFailure] = useState<{ key: string; error: unknown } | null>(null);
  const [forgotten, setForgotten] = useState(0);
  const loadCurrent = useEffectEvent(load);

  useEffect(() => {
    if (key === null) return;
    const listener = (forgottenKey: string) => {
      if (forgottenKey === key) setForgotten((count) => count + 1);
    };
    forgetListeners.add(listener);
    return () => {
      forgetListeners.delete(listener);
    };
  }, [key]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a forgotten answer is asked for again.
  useEffect(() => {
    if (key === null) return;
    const cached = answers.get(key);
    if (cached && Date.now() - cached.at < freshMs) {
      // The answer may have arrived between the render that showed it pending and this effect
      // (a read started before the page rendered, such as the key's lookup the page's head
      // preloads): render again so that it shows.
      setAnswered((count) => count + 1);
      return;
    }
    let current = true;
    read(key, loadCurrent).then(
      () => {
        if (!current) return;
        setFailure(null);
        setAnswered((count) => count + 1);
      },
      (error: unknown) => {
        if (current) setFailure({ key, error });
      },
    );
    return () => {
      current = false;
    };
  }, [key, forgotten]);

  if (key === null) return pending;
  const cached = answers.get(key);
  if (cached) return { isPending: false, isError: false, data: cached.data as T, error: null };
  if (failure?.key === key) return { isPending: false, isError: true, data: undefined, error: failure.error };
  return pending;
}

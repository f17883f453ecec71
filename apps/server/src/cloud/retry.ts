import { errorCode } from "./errors";

/**
 * Cloud APIs throttle (AWS `TooManyRequestsException`, ARM 429 with `Retry-After`) and refuse a
 * write while another change is under way. Every adapter call goes through `withRetry`, and every
 * connector shares one `Limiter` so that a sync or a deployment never has more than a few calls in
 * flight against one organisation or tenant.
 */

export interface RetryOptions {
  /** Attempts in total, the first included. */
  maxAttempts: number;
  /** First backoff delay; doubles with each attempt. */
  baseDelayMs: number;
  /** No single wait is longer than this, Retry-After included. */
  maxDelayMs: number;
  sleep?: (ms: number) => Promise<void>;
  /** 0..1; the default is Math.random. Backoff uses "full jitter". */
  random?: () => number;
}

export const DEFAULT_RETRY: RetryOptions = { maxAttempts: 6, baseDelayMs: 250, maxDelayMs: 20_000 };

const THROTTLING_NAMES = new Set([
  "TooManyRequestsException",
  "Throttling",
  "ThrottlingException",
  "ThrottledException",
  "RequestLimitExceeded",
  "TooManyRequests",
  // S3: https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html
  "SlowDown",
]);

/**
 * Organizations' answers to a write that meets another change in progress; its documentation
 * says to try again later (https://docs.aws.amazon.com/organizations/latest/APIReference/API_AttachPolicy.html#API_AttachPolicy_Errors).
 */
const BUSY_NAMES = new Set(["ConcurrentModificationException", "PolicyChangesInProgressException"]);

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  statusCode?: unknown;
  $metadata?: { httpStatusCode?: number };
  $response?: { headers?: Record<string, string | undefined> };
  response?: { headers?: { get(name: string): string | undefined } };
}

/** How long the provider asked to wait, in milliseconds, when the error is throttling; else undefined. */
export function throttleDelay(error: unknown): { retryAfterMs: number | undefined } | undefined {
  if (!error || typeof error !== "object") return undefined;
  const e = error as ErrorLike;
  const status = typeof e.statusCode === "number" ? e.statusCode : e.$metadata?.httpStatusCode;
  const named =
    (typeof e.name === "string" && THROTTLING_NAMES.has(e.name)) ||
    (typeof e.code === "string" && THROTTLING_NAMES.has(e.code));
  if (!named && status !== 429) return undefined;
  const header = e.response?.headers?.get("retry-after") ?? e.$response?.headers?.["retry-after"];
  return { retryAfterMs: parseRetryAfter(header) };
}

/** `Retry-After` is either seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The wait before attempt `attempt + 1` (attempt counts from 1). */
export function backoffDelay(
  attempt: number,
  retryAfterMs: number | undefined,
  options: Pick<RetryOptions, "baseDelayMs" | "maxDelayMs" | "random">,
): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, options.maxDelayMs);
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling * (options.random ?? Math.random)());
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A connection dropped under a request, as a kept-alive socket is when the endpoint closes it the
 * moment it is reused. AWS's SDKs retry a connection the server closed before answering as a
 * transient error (https://docs.aws.amazon.com/sdk-for-python/v1/guide/config-retries.html,
 * "Retryable errors"; https://docs.aws.amazon.com/sdkref/latest/guide/feature-retry-behavior.html).
 * A refused connection is not retried here: nothing is listening, and saying so at once helps.
 * Every write Palisade makes tolerates finding itself already done, so asking again is safe.
 */
const DROPPED_CODES = new Set(["ECONNRESET", "EPIPE"]);

export function isDroppedConnection(error: unknown): boolean {
  return DROPPED_CODES.has(errorCode(error));
}

/** How long to wait before trying again after `error`; undefined when trying again would not help. */
export function retryDelay(error: unknown): { retryAfterMs: number | undefined } | undefined {
  const throttled = throttleDelay(error);
  if (throttled) return throttled;
  const e = error as ErrorLike | null;
  const name = typeof e?.name === "string" ? e.name : typeof e?.code === "string" ? e.code : "";
  return BUSY_NAMES.has(name) || isDroppedConnection(error) ? { retryAfterMs: undefined } : undefined;
}

/** Runs `call`, retrying throttling, busy and dropped-connection errors with backoff; any other error is thrown at once. */
export async function withRetry<T>(
  call: () => Promise<T>,
  options: RetryOptions = DEFAULT_RETRY,
): Promise<T> {
  const sleep = options.sleep ?? sleepFor;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      const delay = retryDelay(error);
      if (!delay || attempt >= options.maxAttempts) throw error;
      await sleep(backoffDelay(attempt, delay.retryAfterMs, options));
    }
  }
}

export interface Limiter {
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Tasks running now. */
  readonly active: number;
}

/** At most `concurrency` tasks at a time; the others wait in arrival order. */
export function createLimiter(concurrency: number): Limiter {
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error("concurrency must be at least 1");
  let active = 0;
  const waiting: (() => void)[] = [];
  return {
    get active() {
      return active;
    },
    async run(task) {
      // A finishing task hands its slot straight to the next waiter, so a newcomer cannot take it
      // in between.
      if (active >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
      else active += 1;
      try {
        return await task();
      } finally {
        const next = waiting.shift();
        if (next) next();
        else active -= 1;
      }
    },
  };
}

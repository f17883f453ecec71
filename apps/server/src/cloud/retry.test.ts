import { describe, expect, it } from "vitest";
import { backoffDelay, createLimiter, parseRetryAfter, retryDelay, throttleDelay, withRetry } from "./retry";

function awsError(name: string, status: number) {
  return Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status } });
}

function armError(status: number, retryAfter?: string) {
  const headers = new Map(retryAfter ? [["retry-after", retryAfter]] : []);
  return Object.assign(new Error("ARM"), {
    name: "RestError",
    statusCode: status,
    response: { headers: { get: (n: string) => headers.get(n) } },
  });
}

describe("throttleDelay", () => {
  it.each([
    ["AWS TooManyRequestsException", awsError("TooManyRequestsException", 400), { retryAfterMs: undefined }],
    ["STS Throttling", awsError("Throttling", 400), { retryAfterMs: undefined }],
    ["CloudTrail ThrottlingException", awsError("ThrottlingException", 400), { retryAfterMs: undefined }],
    ["ARM 429 with Retry-After", armError(429, "1"), { retryAfterMs: 1000 }],
    ["ARM 429 without Retry-After", armError(429), { retryAfterMs: undefined }],
    ["AWS AccessDenied", awsError("AccessDeniedException", 400), undefined],
    ["ARM 403", armError(403), undefined],
    ["ARM 500", armError(500, "3"), undefined],
    ["a plain error", new Error("boom"), undefined],
    ["not an object", "nope", undefined],
  ])("%s", (_name, error, expected) => {
    expect(throttleDelay(error)).toEqual(expected);
  });
});

// Organizations tells the caller to try these again later
// (https://docs.aws.amazon.com/organizations/latest/APIReference/API_AttachPolicy.html#API_AttachPolicy_Errors).
describe("retryDelay", () => {
  it.each([
    [
      "ConcurrentModificationException",
      awsError("ConcurrentModificationException", 400),
      { retryAfterMs: undefined },
    ],
    [
      "PolicyChangesInProgressException",
      awsError("PolicyChangesInProgressException", 400),
      { retryAfterMs: undefined },
    ],
    ["ARM 429 with Retry-After", armError(429, "2"), { retryAfterMs: 2000 }],
    [
      "a reset connection, as the AWS SDK reports it",
      Object.assign(new Error("read ECONNRESET"), { name: "TimeoutError", code: "ECONNRESET" }),
      { retryAfterMs: undefined },
    ],
    [
      "a broken pipe",
      Object.assign(new Error("write EPIPE"), { code: "EPIPE" }),
      { retryAfterMs: undefined },
    ],
    [
      "a refused connection",
      Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
      undefined,
    ],
    ["DuplicatePolicyException", awsError("DuplicatePolicyException", 400), undefined],
    ["AWS AccessDenied", awsError("AccessDeniedException", 400), undefined],
  ])("%s", (_name, error, expected) => {
    expect(retryDelay(error)).toEqual(expected);
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  it.each([
    ["2", 2000],
    ["0", 0],
    ["Thu, 01 Jan 2026 00:00:05 GMT", 5000],
    ["Wed, 31 Dec 2025 23:00:00 GMT", 0],
    ["soon", undefined],
    [undefined, undefined],
  ])("%s -> %s ms", (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});

describe("backoffDelay", () => {
  const options = { baseDelayMs: 100, maxDelayMs: 1000, random: () => 1 };
  it.each([
    [1, undefined, 100],
    [2, undefined, 200],
    [4, undefined, 800],
    [5, undefined, 1000],
    [9, undefined, 1000],
    [1, 1500, 1000],
    [3, 300, 300],
  ])("attempt %s, Retry-After %s -> %s ms", (attempt, retryAfter, expected) => {
    expect(backoffDelay(attempt, retryAfter, options)).toBe(expected);
  });

  it("jitters below the exponential ceiling", () => {
    expect(backoffDelay(3, undefined, { ...options, random: () => 0.5 })).toBe(200);
  });
});

describe("withRetry", () => {
  it("retries throttling until the call succeeds, waiting as asked", async () => {
    const waits: number[] = [];
    let calls = 0;
    const result = await withRetry(
      async () => {
        calls += 1;
        if (calls === 1) throw armError(429, "1");
        if (calls === 2) throw awsError("TooManyRequestsException", 400);
        return "done";
      },
      {
        maxAttempts: 5,
        baseDelayMs: 10,
        maxDelayMs: 5000,
        random: () => 1,
        sleep: async (ms) => void waits.push(ms),
      },
    );
    expect(result).toBe("done");
    expect(calls).toBe(3);
    expect(waits).toEqual([1000, 20]);
  });

  it("gives up after maxAttempts and throws the last throttling error", async () => {
    let calls = 0;
    const error = await withRetry(
      async () => {
        calls += 1;
        throw awsError("TooManyRequestsException", 400);
      },
      { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1, sleep: async () => {} },
    ).catch((e: Error) => e);
    expect(calls).toBe(3);
    expect((error as Error).name).toBe("TooManyRequestsException");
  });

  it("does not retry other errors", async () => {
    let calls = 0;
    await expect(
      withRetry(async () => {
        calls += 1;
        throw awsError("AccessDeniedException", 400);
      }),
    ).rejects.toThrow("AccessDeniedException");
    expect(calls).toBe(1);
  });
});

describe("createLimiter", () => {
  it("never runs more than the bound at once and runs every task", async () => {
    const limiter = createLimiter(3);
    let peak = 0;
    const done = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        limiter.run(async () => {
          peak = Math.max(peak, limiter.active);
          await new Promise((r) => setTimeout(r, (i % 4) + 1));
          return i;
        }),
      ),
    );
    expect(peak).toBe(3);
    expect(done).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(limiter.active).toBe(0);
  });

  it("frees the slot of a task that fails", async () => {
    const limiter = createLimiter(1);
    await expect(limiter.run(async () => Promise.reject(new Error("x")))).rejects.toThrow("x");
    expect(await limiter.run(async () => "next")).toBe("next");
  });
});

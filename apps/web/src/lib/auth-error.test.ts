import { describe, expect, it } from "vitest";
import { authFailureText, retryAfterCapture, tooManyRequestsText } from "./auth-error";

describe("account call failures", () => {
  it("say how long to wait after too many requests", () => {
    expect(authFailureText({ status: 429, message: "Too many" }, 42)).toBe(
      "Too many requests. Try again in 42 s.",
    );
    expect(tooManyRequestsText(undefined)).toBe("Too many requests. Wait a minute and try again.");
  });

  it("read the wait from the answer's Retry-After header", () => {
    const capture = retryAfterCapture();
    capture.fetchOptions.onError({
      response: new Response(null, { status: 429, headers: { "X-Retry-After": "17" } }),
    });
    expect(capture.seconds()).toBe(17);
  });

  it("pass the server's words on, and name a network failure", () => {
    expect(authFailureText({ status: 400, message: '"x" is not a valid email' }, undefined)).toBe(
      '"x" is not a valid email',
    );
    expect(authFailureText({ status: 0 }, undefined)).toMatch(/could not be reached/);
  });
});

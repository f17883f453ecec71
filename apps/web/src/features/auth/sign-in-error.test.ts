import { describe, expect, it } from "vitest";
import { type AuthErrorLike, signInCodeErrorMessage, signInErrorMessage } from "./sign-in-error";

describe("signInErrorMessage", () => {
  it.each<[AuthErrorLike, string]>([
    [
      { status: 401, code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" },
      "Invalid email or password",
    ],
    [{ status: 400, code: "INVALID_EMAIL_OR_PASSWORD" }, "Invalid email or password"],
    [{ status: 429 }, "Too many sign-in attempts. Wait a minute and try again."],
    [{ status: 403, code: "EMAIL_NOT_VERIFIED" }, "Verify your e-mail address before signing in."],
    [{}, "The server could not be reached. Check your connection and try again."],
    [{ status: 500, message: "Database unavailable" }, "Database unavailable"],
    [{ status: 500 }, "Sign-in failed. Try again."],
  ])("%j -> %s", (error, message) => {
    expect(signInErrorMessage(error)).toBe(message);
  });
});

describe("signInCodeErrorMessage", () => {
  it.each<[AuthErrorLike, string]>([
    [{ status: 400, code: "INVALID_OTP" }, "That code is not right. Check the latest e-mail and try again."],
    [
      { status: 403, code: "TOO_MANY_ATTEMPTS" },
      "Too many wrong tries: this code no longer works. Request a new code.",
    ],
    [{ status: 400, code: "OTP_EXPIRED" }, "This code has expired. Request a new code."],
    [{ status: 429 }, "Too many attempts. Wait a minute and try again."],
    [{}, "The server could not be reached. Check your connection and try again."],
  ])("%j -> %s", (error, message) => {
    expect(signInCodeErrorMessage(error)).toBe(message);
  });
});

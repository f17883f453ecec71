import { describe, expect, it } from "vitest";
import { confirmationFailureText } from "./email-confirmation";

describe("confirmationFailureText", () => {
  it.each([
    ["TOKEN_EXPIRED", /expired\. Sign in with your e-mail address and password to be sent a new link\./],
    ["INVALID_TOKEN", /incomplete, was altered/],
    ["USER_NOT_FOUND", /no longer exists/],
    ["INVALID_USER", /Sign out, then open the link again/],
  ])("%s says what happened and what to do", (code, expected) => {
    expect(confirmationFailureText(code)).toMatch(expected);
  });
});

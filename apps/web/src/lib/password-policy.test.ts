import { describe, expect, it } from "vitest";
import { passwordPolicyText } from "./password-policy";

describe("password policy text", () => {
  it("names the length alone when no character class is required", () => {
    expect(passwordPolicyText({ minLength: 10, maxLength: 128, requiredClasses: [] })).toBe(
      "At least 10 characters.",
    );
  });

  it("lists the required character classes", () => {
    expect(
      passwordPolicyText({
        minLength: 12,
        maxLength: 128,
        requiredClasses: ["uppercase", "digit", "symbol"],
      }),
    ).toBe("At least 12 characters, with an uppercase letter, a digit and a symbol or space.");
  });
});

import { describe, expect, it } from "vitest";
import { signUpFailureText, signUpSchema } from "./sign-up-schema";

const valid = {
  name: "Sam Signup",
  email: "sam@example.com",
  password: "a-long-password",
  confirm: "a-long-password",
};

function messages(values: Partial<typeof valid>): Record<string, string> {
  const result = signUpSchema.safeParse({ ...valid, ...values });
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join("."), issue.message]));
}

describe("signUpSchema", () => {
  it("accepts a complete form and trims the name and address", () => {
    const result = signUpSchema.parse({ ...valid, name: "  Sam  ", email: " sam@example.com " });
    expect(result).toMatchObject({ name: "Sam", email: "sam@example.com" });
  });

  it.each([
    [{ name: "   " }, { name: "Name is required" }],
    [{ name: "n".repeat(101) }, { name: "Name must not exceed 100 characters" }],
    [{ email: "" }, { email: "E-mail is required" }],
    [{ email: "sam@example" }, { email: '"sam@example" is not a valid email' }],
    [
      { password: "too-short", confirm: "too-short" },
      { password: "Password must be at least 10 characters long" },
    ],
    [
      { password: "p".repeat(129), confirm: "p".repeat(129) },
      { password: "Password must not exceed 128 characters" },
    ],
    [{ confirm: "another-password" }, { confirm: "The passwords do not match" }],
  ])("%j is refused with %j", (values, expected) => {
    expect(messages(values)).toEqual(expected);
  });
});

describe("signUpFailureText", () => {
  it.each([
    [{ status: 403, code: "SIGN_UP_DISABLED", message: "x" }, undefined, /Sign-up is turned off/],
    [{ status: 429 }, 12, /Try again in 12 s\./],
    [{ status: 0 }, undefined, /could not be reached/],
    [{ status: 400, message: '"a@b" is not a valid email' }, undefined, /"a@b" is not a valid email/],
  ])("%j reads %s", (error, seconds, expected) => {
    expect(signUpFailureText(error, seconds)).toMatch(expected);
  });
});

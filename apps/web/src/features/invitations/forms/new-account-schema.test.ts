import { describe, expect, it } from "vitest";
import { newAccountSchema } from "./new-account-schema";

const valid = { name: "Dana Dev", password: "a-long-password", confirm: "a-long-password" };

function issueOf(values: typeof valid) {
  const result = newAccountSchema.safeParse(values);
  return result.success
    ? undefined
    : { path: result.error.issues[0]?.path, message: result.error.issues[0]?.message };
}

describe("new account form", () => {
  it.each([
    ["a valid form", {}, undefined],
    ["a blank name", { name: "   " }, { path: ["name"], message: "Name is required" }],
    [
      "a long name",
      { name: "x".repeat(101) },
      { path: ["name"], message: "Name must not exceed 100 characters" },
    ],
    [
      "a short password",
      { password: "short", confirm: "short" },
      { path: ["password"], message: "Password must be at least 10 characters long" },
    ],
    [
      "a different confirmation",
      { confirm: "another-password" },
      { path: ["confirm"], message: "The passwords do not match" },
    ],
  ])("%s", (_name, change, issue) => {
    expect(issueOf({ ...valid, ...change })).toEqual(issue);
  });
});

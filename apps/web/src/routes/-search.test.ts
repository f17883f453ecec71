import { describe, expect, it } from "vitest";
import { signInSearchSchema } from "./-search";

describe("sign-in search", () => {
  it.each([
    [{}, {}],
    [{ redirect: { path: "/events?type=alert" } }, { redirect: { path: "/events?type=alert" } }],
    [
      { redirect: { path: "/policies/create", recommendationId: "r1", genericUrl: "/x" } },
      { redirect: { path: "/policies/create", recommendationId: "r1", genericUrl: "/x" } },
    ],
    [{ redirect: { path: "" } }, { redirect: { path: "" } }],
  ])("accepts %j", (input, expected) => {
    expect(signInSearchSchema.parse(input)).toEqual(expected);
  });

  it.each([["https://evil.example"], ["//evil.example"], ["no-slash"]])(
    "rejects redirect path %j with 'Invalid path format'",
    (path) => {
      const result = signInSearchSchema.safeParse({ redirect: { path } });
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((i) => i.message)).toEqual(["Invalid path format"]);
    },
  );
});

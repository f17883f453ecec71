import { describe, expect, it } from "vitest";
import { isValidRedirectPath, postSignInPath, redirectPathSchema, redirectTarget } from "./redirect-path";

describe("redirect path rule", () => {
  it.each([
    ["", true],
    ["/policies/create", true],
    ["/recommendations/archive", true],
    ["/req", true],
    ["/initiatives/cis-aws-3", true],
    ["/policies/4f1c", true],
    ["/events?type=alert&scope=o-123", true],
    ["/anything/else~ok", true],
    ["https://evil.example", false],
    ["//evil.example/x", false],
    ["javascript:alert(1)", false],
    ["/with space", false],
    ['/quote"s', false],
    ["/back\\slash", false],
    ["dashboard", false],
  ])("%j valid: %s", (path, valid) => {
    expect(isValidRedirectPath(path)).toBe(valid);
  });

  it("reports 'Invalid path format' for a bad path", () => {
    const result = redirectPathSchema.safeParse("https://evil.example");
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe("Invalid path format");
  });
});

describe("postSignInPath", () => {
  it.each([
    [undefined, "/dashboard"],
    ["", "/dashboard"],
    ["/", "/dashboard"],
    ["/events?type=alert", "/events?type=alert"],
    ["//evil.example", "/dashboard"],
  ])("%j -> %s", (path, expected) => {
    expect(postSignInPath(path)).toBe(expected);
  });
});

describe("sign-in redirect target", () => {
  it.each([
    [undefined, undefined],
    [{ path: "/events" }, "/events"],
    [{ recommendationId: "r 1" }, "/recommendations?recommendationId=r%201"],
    [{ path: "/", recommendationId: "r1" }, "/recommendations?recommendationId=r1"],
    [
      { path: "/recommendations/archive", recommendationId: "r1" },
      "/recommendations/archive?recommendationId=r1",
    ],
    [
      { path: "/policies/create?provider=AWS", recommendationId: "r1" },
      "/policies/create?provider=AWS&recommendationId=r1",
    ],
  ])("%j -> %s", (redirect, target) => {
    expect(redirectTarget(redirect)).toBe(target);
  });
});

import { describe, expect, it } from "vitest";
import { defaultLandingPath, postSignInPath, redirectTarget } from "@/lib/redirect-path";
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

  it.each([["https://evil.example"], ["//evil.example"], ["no-slash"], [42]])(
    "drops redirect path %j, keeping the page usable and the rest of the redirect",
    (path) => {
      expect(signInSearchSchema.parse({ redirect: { path, recommendationId: "r1" } })).toEqual({
        redirect: { recommendationId: "r1" },
      });
    },
  );

  it.each([["garbage"], [7], [["/events"]]])("drops a redirect that is not one (%j)", (redirect) => {
    expect(signInSearchSchema.parse({ redirect })).toEqual({});
  });

  it("lands on the default path once a dropped redirect leaves none", () => {
    const search = signInSearchSchema.parse({ redirect: { path: "//evil.example" } });
    expect(postSignInPath(redirectTarget(search.redirect))).toBe(defaultLandingPath);
  });
});

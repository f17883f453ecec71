import { describe, expect, it } from "vitest";
import { pagePreloadsOf, patternOfRouteFile } from "./vite-page-preloads";

describe("the code a page's head announces", () => {
  it.each([
    ["src/routes/index.tsx", "/"],
    ["src/routes/_authenticated/dashboard/index.tsx", "/dashboard"],
    ["src/routes/_authenticated/policies/$policyId/index.tsx", "/policies/$policyId"],
    ["src/routes/_external/invite/$token.tsx", "/invite/$token"],
    ["src/routes/_authenticated/settings/notifications.tsx", "/settings/notifications"],
  ])("%s is the route %s", (file, pattern) => {
    expect(patternOfRouteFile(file)).toBe(pattern);
  });

  it("a route loads its layouts' and its own split parts with what they import, less the entry's code", () => {
    const manifest = {
      "index.html": { file: "assets/index-1.js", imports: ["_react-1.js"] },
      "_react-1.js": { file: "assets/react-1.js" },
      "_shell-1.js": { file: "assets/shell-1.js", imports: ["_react-1.js"] },
      "src/routes/__root.tsx?tsr-split=component": { file: "assets/root-1.js" },
      "src/routes/_authenticated/route.tsx?tsr-split=component": {
        file: "assets/route-1.js",
        imports: ["_shell-1.js"],
      },
      "src/routes/_authenticated/route.tsx?tsr-split=notFoundComponent": { file: "assets/nf-1.js" },
      "src/routes/_authenticated/dashboard/index.tsx?tsr-split=component": {
        file: "assets/dashboard-1.js",
        imports: ["_react-1.js", "_shell-1.js"],
      },
      "src/routes/index.tsx?tsr-split=component": { file: "assets/sign-in-1.js" },
      "src/tenant-check.ts": { file: "assets/tenant-check-1.js", imports: ["_shell-1.js"] },
      "req.html": { file: "assets/req-1.js", imports: ["_react-1.js"] },
      "_text-block-1.js": { file: "assets/text-block-1.js", name: "text-block", imports: ["_react-1.js"] },
    };
    const preloads = pagePreloadsOf(manifest, {
      appEntry: "index.html",
      withKey: { "/req": { entry: "req.html", parts: ["text-block"] } },
      loaderImports: { "src/routes/_authenticated/route.tsx": ["src/tenant-check.ts"] },
    });
    expect(preloads.routes).toEqual({
      "/dashboard": [
        "/assets/dashboard-1.js",
        "/assets/root-1.js",
        "/assets/route-1.js",
        "/assets/shell-1.js",
        "/assets/tenant-check-1.js",
      ],
      "/": ["/assets/root-1.js", "/assets/sign-in-1.js"],
    });
    expect(preloads.withKey).toEqual({ "/req": ["/assets/text-block-1.js"] });
    expect(() =>
      pagePreloadsOf(manifest, {
        appEntry: "index.html",
        withKey: { "/req": { entry: "req.html", parts: ["renamed-part"] } },
      }),
    ).toThrow(/found 0 of the 1 parts/);
  });
});

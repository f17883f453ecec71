import { describe, expect, it } from "vitest";
import { routerDefaults } from "./router-defaults";

describe("router defaults", () => {
  it.each<[keyof typeof routerDefaults, unknown]>([
    ["defaultPreload", "intent"],
    ["defaultPreloadDelay", 50],
    ["defaultPendingMs", 1000],
    ["defaultPendingMinMs", 500],
    ["defaultPreloadStaleTime", 30_000],
    ["defaultGcTime", 300_000],
    ["scrollRestoration", true],
  ])("%s is %j", (option, value) => {
    expect(routerDefaults[option]).toBe(value);
  });
});

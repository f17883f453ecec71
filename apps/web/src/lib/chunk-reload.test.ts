import { describe, expect, it } from "vitest";
import { shouldReloadForChunkError } from "./chunk-reload";

function memoryStorage() {
  const data = new Map<string, string>();
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
  };
}

const chunkError = (url: string) => new TypeError(`Failed to fetch dynamically imported module: ${url}`);

describe("shouldReloadForChunkError", () => {
  it("reloads once per distinct failed module", () => {
    const storage = memoryStorage();
    expect(shouldReloadForChunkError(chunkError("/assets/a.js"), storage)).toBe(true);
    expect(shouldReloadForChunkError(chunkError("/assets/a.js"), storage)).toBe(false);
    expect(shouldReloadForChunkError(chunkError("/assets/b.js"), storage)).toBe(true);
  });

  it("does not reload again after the router reloaded for the same module", () => {
    const storage = memoryStorage();
    const error = chunkError("/assets/c.js");
    storage.setItem(`tanstack_router_reload:${error.message}`, "1");
    expect(shouldReloadForChunkError(error, storage)).toBe(false);
  });

  it.each([
    ["an ordinary error", new Error("Something broke")],
    ["a server error", new Error("[permission_denied] no tenant")],
    ["a non-error value", "Failed to fetch dynamically imported module"],
  ])("does not reload for %s", (_name, error) => {
    expect(shouldReloadForChunkError(error, memoryStorage())).toBe(false);
  });
});

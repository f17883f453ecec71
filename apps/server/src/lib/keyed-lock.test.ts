import { describe, expect, it } from "vitest";
import { createKeyedLock } from "./keyed-lock";

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe("createKeyedLock", () => {
  it("runs work for one key in order, never interleaved", async () => {
    const exclusive = createKeyedLock();
    const seen: string[] = [];
    const run = (name: string) =>
      exclusive("bundle-1", async () => {
        seen.push(`${name} start`);
        await tick();
        seen.push(`${name} end`);
      });
    await Promise.all([run("a"), run("b")]);
    expect(seen).toEqual(["a start", "a end", "b start", "b end"]);
  });

  it("runs different keys in parallel and goes on after a failure", async () => {
    const exclusive = createKeyedLock();
    const seen: string[] = [];
    const failing = exclusive("k", async () => {
      throw new Error("cloud unreachable");
    });
    const other = exclusive("other", async () => seen.push("other"));
    const after = exclusive("k", async () => seen.push("after failure"));
    await expect(failing).rejects.toThrow("cloud unreachable");
    await Promise.all([other, after]);
    expect(seen).toEqual(["other", "after failure"]);
  });
});

import { describe, expect, it } from "vitest";
import { prefilledPolicyKey, waiverRequestSearchSchema } from "./-search";

describe("waiver request search", () => {
  it.each([
    [{}, undefined, ""],
    [{ k: "ABCDEFGHIJ" }, "ABCDEFGHIJ", "ABCDEFG"],
    [{ k: "ABC" }, "ABC", "ABC"],
    [{ k: 12345678 }, "12345678", "1234567"],
    [{ k: { x: 1 } }, undefined, ""],
  ])("%j gives k %j and prefills %j", (input, k, prefill) => {
    const search = waiverRequestSearchSchema.parse(input);
    expect(search.k).toBe(k);
    expect(prefilledPolicyKey(search.k)).toBe(prefill);
  });
});

import { describe, expect, it } from "vitest";
import { prefilledPolicyKey } from "./waiver-request-link";

describe("the key a waiver page link carries", () => {
  it.each([
    ["", ""],
    ["?k=ABCDEFG", "ABCDEFG"],
    ["?k=ABCDEFGHIJ", "ABCDEFG"],
    ["?k=ABC", "ABC"],
    ["?k=12345678", "1234567"],
    ["?k=%20K7QX2MD%20", "K7QX2MD"],
    ["?other=1&k=k7qx2md", "k7qx2md"],
  ])("%j prefills %j", (search, prefill) => {
    expect(prefilledPolicyKey(search)).toBe(prefill);
  });
});

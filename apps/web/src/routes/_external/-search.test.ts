import { describe, expect, it } from "vitest";
import { externalSearchSchema } from "./-search";

describe("external layout search", () => {
  it.each([
    [{}, {}],
    [{ k: "ABCDEFG" }, { k: "ABCDEFG" }],
    [{ k: 1234567 }, { k: "1234567" }],
    [{ k: ["A"] }, {}],
    [{ path: "/req" }, { path: "/req" }],
    [{ path: false }, { path: "" }],
  ])("%j -> %j", (input, expected) => {
    expect(externalSearchSchema.parse(input)).toEqual(expected);
  });
});

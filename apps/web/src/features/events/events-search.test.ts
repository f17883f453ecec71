import { describe, expect, it } from "vitest";
import { selectedEventTypes } from "./events-search";

describe("selectedEventTypes", () => {
  it.each([
    [undefined, []],
    ["waived", ["waived"]],
    [
      ["dismissed", "resolved"],
      ["dismissed", "resolved"],
    ],
  ] as const)("selected types of %j", (type, expected) => {
    expect(selectedEventTypes(type as never)).toEqual(expected);
  });
});

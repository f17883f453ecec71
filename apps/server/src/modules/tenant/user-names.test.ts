import { describe, expect, it } from "vitest";
import { splitName } from "./user-names";

describe("splitName", () => {
  it.each([
    ["Ada Lovelace", { givenName: "Ada", familyName: "Lovelace" }],
    ["Mary Ann  Evans", { givenName: "Mary Ann", familyName: "Evans" }],
    ["Administrator", { givenName: "Administrator", familyName: "" }],
    ["  ", { givenName: "", familyName: "" }],
  ])("%s", (name, expected) => {
    expect(splitName(name)).toEqual(expected);
  });
});

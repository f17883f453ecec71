import { describe, expect, it } from "vitest";
import { displayName, initials, type PersonName } from "./user-display";

describe("initials", () => {
  it.each<[PersonName, string]>([
    [{ givenName: "ada", familyName: "Lovelace", name: "Countess" }, "AL"],
    [{ name: "Grace Brewster Hopper" }, "GB"],
    [{ name: "  linus   torvalds " }, "LT"],
    [{ name: "Cher" }, "C"],
    [{ givenName: "Ada", name: "Ada King" }, "AK"],
    [{ name: "" }, ""],
    [{ name: "Émile Zola" }, "ÉZ"],
  ])("%j -> %s", (person, expected) => {
    expect(initials(person)).toBe(expected);
  });
});

describe("displayName", () => {
  it.each<[PersonName, string]>([
    [{ givenName: "Ada", familyName: "Lovelace", name: "admin" }, "Ada Lovelace"],
    [{ givenName: "Ada", name: "admin" }, "Ada"],
    [{ name: "Palisade Admin" }, "Palisade Admin"],
    [{ givenName: " ", familyName: "", name: "Fallback" }, "Fallback"],
    [{}, ""],
  ])("%j -> %s", (person, expected) => {
    expect(displayName(person)).toBe(expected);
  });
});

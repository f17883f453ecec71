import { describe, expect, it } from "vitest";
import { isOwnEntryPage } from "./own-entry-pages";

describe("pages with their own entry", () => {
  it.each([
    ["/req", true],
    ["/req?k=K7QX2MD", true],
    ["/req#form", true],
    ["/request", false],
    ["/dashboard", false],
    ["/", false],
  ])("%s -> %s", (href, expected) => {
    expect(isOwnEntryPage(href)).toBe(expected);
  });
});

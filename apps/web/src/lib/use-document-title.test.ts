import { describe, expect, it } from "vitest";
import { documentTitle } from "./use-document-title";

describe("documentTitle", () => {
  it.each([
    ["Events", "Events · Palisade"],
    ["", "Palisade"],
    [undefined, "Palisade"],
  ])("%j -> %s", (page, title) => {
    expect(documentTitle(page)).toBe(title);
  });
});

import { describe, expect, it } from "vitest";
import { parseEmailAddresses } from "./email-addresses";

describe("parseEmailAddresses", () => {
  it("splits on commas, semicolons, spaces and line breaks", () => {
    expect(
      parseEmailAddresses("a@example.com, b@example.com\nc@example.com d@example.com;e@example.com"),
    ).toEqual({
      addresses: ["a@example.com", "b@example.com", "c@example.com", "d@example.com", "e@example.com"],
      errors: [],
    });
  });

  it("lower-cases and keeps each address once", () => {
    expect(parseEmailAddresses("Ann@Example.com ann@example.com").addresses).toEqual(["ann@example.com"]);
  });

  it("names each invalid entry with the spec's message", () => {
    expect(parseEmailAddresses("ok@example.com, not-an-email, x@y").errors).toEqual([
      '"not-an-email" is not a valid email',
      '"x@y" is not a valid email',
    ]);
  });

  it("reads nothing from blank input", () => {
    expect(parseEmailAddresses("  \n , ")).toEqual({ addresses: [], errors: [] });
  });
});

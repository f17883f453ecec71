import { describe, expect, it } from "vitest";
import { recommendationsSearchSchema } from "./-search";

describe("recommendations search", () => {
  it.each([
    [{}, {}],
    [{ recommendationId: "rec-1" }, { recommendationId: "rec-1" }],
    [{ recommendationId: 17 }, { recommendationId: "17" }],
    [{ recommendationId: [1] }, {}],
  ])("%j -> %j", (input, expected) => {
    expect(recommendationsSearchSchema.parse(input)).toEqual(expected);
  });
});

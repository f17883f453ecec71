import { describe, expect, it } from "vitest";
import { authenticatedSearchSchema } from "./-search";

describe("authenticated layout search", () => {
  it.each([
    [{}, {}],
    [
      { path: "/req", recommendationId: "r1", policyId: "p1", eventId: "e1" },
      { path: "/req", recommendationId: "r1", policyId: "p1", eventId: "e1" },
    ],
    [{ path: 42 }, { path: "" }],
    [
      { policyId: 123, eventId: 7 },
      { policyId: "123", eventId: "7" },
    ],
    [{ recommendationId: { nested: true } }, {}],
  ])("%j -> %j", (input, expected) => {
    expect(authenticatedSearchSchema.parse(input)).toEqual(expected);
  });
});

import { describe, expect, it } from "vitest";
import { policiesSearchSchema } from "./-search";

describe("catalogue search parameters", () => {
  it.each([
    [{}, {}],
    [
      { view: "deployed", page: 3 },
      { view: "deployed", page: 3 },
    ],
    [{ view: "archived", page: 0 }, {}],
    [
      { provider: "AWS", category: "encryption", state: "prevent" },
      { provider: "AWS", category: "encryption", state: "prevent" },
    ],
    [{ provider: "GCP", state: "maybe" }, {}],
    [
      { search: 42, framework: "CIS" },
      { search: "42", framework: "CIS" },
    ],
  ])("%j -> %j", (input, expected) => {
    expect(policiesSearchSchema.parse(input)).toEqual(expected);
  });
});

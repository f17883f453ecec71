import { describe, expect, it } from "vitest";
import { READING_URL_MAX_LENGTH, readingUrlProblem, safeReadingUrls } from "./reading-url";

describe("further-reading links", () => {
  it.each(["https://docs.aws.amazon.com/organizations/", "http://example.com/a?b=c#d"])(
    "accepts %s",
    (href) => {
      expect(readingUrlProblem(href)).toBeUndefined();
    },
  );

  it.each([
    ["javascript:alert(1)", /only https and http/],
    ["data:text/html,<script>alert(1)</script>", /only https and http/],
    ["mailto:a@example.com", /only https and http/],
    ["/relative/path", /not a URL/],
    ["", /needs an address/],
    [`https://example.com/${"a".repeat(READING_URL_MAX_LENGTH)}`, /at most 2048/],
  ])("refuses %s", (href, problem) => {
    expect(readingUrlProblem(href)).toMatch(problem);
  });

  it("keeps only the links that pass, for showing", () => {
    const links = [
      { name: "ok", href: "https://example.com" },
      { name: "script", href: "javascript:alert(1)" },
    ];
    expect(safeReadingUrls(links)).toEqual([links[0]]);
  });
});

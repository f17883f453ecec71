import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { MarkdownText } from "./markdown-text";

const html = (markdown: string) => renderToStaticMarkup(<MarkdownText>{markdown}</MarkdownText>);

describe("MarkdownText", () => {
  it("renders Markdown with http(s) and mailto links that open safely", () => {
    const out = html("**Denied** by [the policy](https://example.com/p) - ask [ops](mailto:ops@example.com)");
    expect(out).toContain("<strong>Denied</strong>");
    expect(out).toContain('href="https://example.com/p"');
    expect(out).toContain('href="mailto:ops@example.com"');
    expect(out).toContain('rel="noopener noreferrer"');
  });

  it.each([
    "[x](javascript:alert(1))",
    "[x](JAVASCRIPT:alert(1))",
    "[x](data:text/html;base64,PHNjcmlwdD4=)",
    "[x](vbscript:msgbox)",
    "[x](ftp://example.com)",
    "<javascript:alert(1)>",
  ])("blanks the link of %s", (markdown) => {
    const out = html(markdown);
    expect(out).toContain('href=""');
    expect(out).not.toMatch(/href="[a-z]+:/i);
  });

  it.each([
    '<script>alert("x")</script>',
    '<img src="x" onerror="alert(1)">',
    '<a href="javascript:alert(1)">x</a>',
    '<iframe src="https://evil.example"></iframe>',
    '<div onclick="alert(1)">hi</div>',
  ])("drops raw HTML: %s", (markdown) => {
    const out = html(`Text ${markdown} end`);
    expect(out).not.toMatch(/<script|<img|<iframe|onerror|onclick|javascript:/i);
  });

  it("loads no images", () => {
    expect(html("![pixel](https://tracker.example/p.gif)")).not.toContain("<img");
  });
});

import { describe, expect, it } from "vitest";
import { safeUrl } from "./safe-url";

describe("safeUrl", () => {
  it.each([
    ["https://docs.aws.amazon.com/organizations/", "https://docs.aws.amazon.com/organizations/"],
    ["http://example.com", "http://example.com"],
    ["HTTPS://EXAMPLE.COM", "HTTPS://EXAMPLE.COM"],
    ["mailto:security@example.com", "mailto:security@example.com"],
    ["irc://irc.libera.chat/palisade", ""],
    ["xmpp:ops@example.com", ""],
    ["/policies/abc", "/policies/abc"],
    ["#section", "#section"],
    ["/path?time=12:00", "/path?time=12:00"],
    ["javascript:alert(1)", ""],
    ["JavaScript:alert(1)", ""],
    ["data:text/html;base64,PHNjcmlwdD4=", ""],
    ["vbscript:msgbox", ""],
    ["ftp://example.com", ""],
  ])("%s -> %j", (input, expected) => {
    expect(safeUrl(input)).toBe(expected);
  });
});

import { describe, expect, it } from "vitest";
import { csvField, toCsv } from "./csv";

describe("csvField", () => {
  it.each([
    ["plain", "plain"],
    ["with,comma", '"with,comma"'],
    ['say "hi"', '"say ""hi"""'],
    ["two\nlines", '"two\nlines"'],
    ['=HYPERLINK("http://x")', '"\'=HYPERLINK(""http://x"")"'],
    ["+1+1", "'+1+1"],
    ["-2", "'-2"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\tcmd", "'\tcmd"],
    ["", ""],
    [null, ""],
    [undefined, ""],
    [42, "42"],
    [-3, "-3"],
    [true, "true"],
    [new Date("2026-01-02T03:04:05.000Z"), "2026-01-02T03:04:05.000Z"],
    [{ a: 1 }, '"{""a"":1}"'],
  ])("%j -> %s", (value, expected) => {
    expect(csvField(value)).toBe(expected);
  });
});

describe("toCsv", () => {
  it("writes a header and CRLF-terminated rows", () => {
    expect(
      toCsv(
        ["id", "name"],
        [
          ["1", "a"],
          ["2", "b,c"],
        ],
      ),
    ).toBe('id,name\r\n1,a\r\n2,"b,c"\r\n');
  });
});

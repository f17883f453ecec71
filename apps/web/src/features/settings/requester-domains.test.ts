import { describe, expect, it } from "vitest";
import { parseDomainList } from "./requester-domains";

describe("parseDomainList", () => {
  it("reads one domain a line, commas or spaces, lower case, without duplicates", () => {
    expect(parseDomainList("Example.com\n@corp.example, example.com  eu.corp.example\n")).toEqual({
      domains: ["example.com", "corp.example", "eu.corp.example"],
    });
  });

  it("names the first entry that is not a domain", () => {
    expect(parseDomainList("example.com\nana@example.com").problem).toBe(
      '"ana@example.com" is not an e-mail domain; write it like example.com, without a user name or wildcard.',
    );
    expect(parseDomainList("*.example.com").problem).toMatch(/not an e-mail domain/);
    expect(parseDomainList("localhost").problem).toMatch(/not an e-mail domain/);
  });

  it("bounds the list", () => {
    const many = Array.from({ length: 51 }, (_, i) => `d${i}.example`).join("\n");
    expect(parseDomainList(many).problem).toBe("List at most 50 waiver requester domains.");
  });
});

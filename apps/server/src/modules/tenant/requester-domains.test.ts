import { describe, expect, it } from "vitest";
import { inRequesterDomains, isDomainName, parseRequesterDomains } from "./requester-domains";

describe("waiver requester domains", () => {
  it.each(["example.com", "eu.example.co.uk", "xn--bcher-kva.example", "a-b.io"])("accepts %s", (d) => {
    expect(isDomainName(d)).toBe(true);
  });

  it.each(["example", "*.example.com", "user@example.com", "-a.com", "a..com", "10.0.0.1", "a.c0m1"])(
    "refuses %s",
    (d) => {
      expect(isDomainName(d)).toBe(false);
    },
  );

  it("normalises the list and drops duplicates and empty lines", () => {
    expect(parseRequesterDomains([" Example.COM ", "@example.com", "", "corp.example"])).toEqual({
      ok: true,
      domains: ["example.com", "corp.example"],
    });
  });

  it("names the first bad entry and bounds the list", () => {
    expect(parseRequesterDomains(["example.com", "*.corp"])).toEqual({
      ok: false,
      message:
        '"*.corp" is not an e-mail domain; write it like example.com, without a user name or wildcard.',
    });
    const many = Array.from({ length: 51 }, (_, i) => `d${i}.example`);
    expect(parseRequesterDomains(many)).toMatchObject({ ok: false });
  });

  it("matches an address's domain exactly", () => {
    expect(inRequesterDomains("Ana@Example.com", ["example.com"])).toBe(true);
    expect(inRequesterDomains("ana@eu.example.com", ["example.com"])).toBe(false);
    expect(inRequesterDomains("ana@example.com.evil", ["example.com"])).toBe(false);
  });
});

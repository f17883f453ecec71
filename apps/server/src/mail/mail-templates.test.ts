import { describe, expect, it } from "vitest";
import { enchantedLinkMail, escapeHtml, formatExpiry, invitationMail } from "./mail-templates";

const expiresAt = new Date("2026-11-30T21:05:00Z");

describe("escapeHtml", () => {
  it.each([
    ["plain", "plain"],
    ["<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"],
    ["\"quoted\" & 'single'", "&quot;quoted&quot; &amp; &#39;single&#39;"],
    ["&amp; stays visible", "&amp;amp; stays visible"],
  ])("%s", (input, escaped) => {
    expect(escapeHtml(input)).toBe(escaped);
  });
});

describe("formatExpiry", () => {
  it("names the day, the time and the UTC time zone", () => {
    expect(formatExpiry(expiresAt)).toBe("Monday 30 November 2026 at 21:05 UTC");
  });
});

describe("invitationMail", () => {
  const input = {
    to: "bob@example.com",
    inviterName: "Alice Admin",
    tenantName: "Acme Security",
    role: "EDITOR",
    link: "https://palisade.example.com/invite/3f1c",
    expiresAt,
  };

  it("says who invited, to which tenant, with which role, the link and the expiry in both parts", () => {
    const mail = invitationMail(input);
    expect(mail.to).toBe("bob@example.com");
    expect(mail.subject).toBe("Alice Admin invited you to Acme Security on Palisade");
    for (const part of [mail.text, mail.html]) {
      for (const expected of [
        "Palisade",
        "Alice Admin",
        "Acme Security",
        "EDITOR",
        "https://palisade.example.com/invite/3f1c",
        "Monday 30 November 2026 at 21:05 UTC",
        "Accept the invitation",
      ]) {
        expect(part).toContain(expected);
      }
    }
    expect(mail.html).toContain('<a href="https://palisade.example.com/invite/3f1c"');
  });

  it("escapes every value in the HTML part and keeps the text part literal", () => {
    const mail = invitationMail({
      ...input,
      inviterName: '<img src=x onerror="alert(1)">',
      tenantName: "R&D <Team>",
      link: 'https://palisade.example.com/invite/a"b<c>',
    });
    expect(mail.html).not.toContain("<img");
    expect(mail.html).not.toContain("<Team>");
    expect(mail.html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(mail.html).toContain("R&amp;D &lt;Team&gt;");
    expect(mail.html).toContain('href="https://palisade.example.com/invite/a&quot;b&lt;c&gt;"');
    expect(mail.text).toContain("R&D <Team>");
  });

  it("keeps user-given names on one line, so they cannot add headers or paragraphs", () => {
    const mail = invitationMail({ ...input, tenantName: "Acme\r\nBcc: victim@example.com" });
    expect(mail.subject).toBe("Alice Admin invited you to Acme Bcc: victim@example.com on Palisade");
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.text).not.toContain("Acme\r\n");
  });
});

describe("enchantedLinkMail", () => {
  it("lists each number with its own link in both parts, and the expiry", () => {
    const choices = [17, 42, 63].map((number) => ({
      number,
      link: `https://palisade.example.com/enchanted-link?token=t${number}`,
    }));
    const mail = enchantedLinkMail({ to: "ada@example.com", choices, expiresAt });
    expect(mail.subject).toBe("Confirm your Palisade sign-in");
    for (const { number, link } of choices) {
      expect(mail.text).toContain(`Number ${number}:\n${link}`);
      expect(mail.html).toContain(`<a href="${link}"`);
      expect(mail.html).toContain(`Number ${number}`);
    }
    expect(mail.text).toContain("These links expire on Monday 30 November 2026 at 21:05 UTC.");
  });
});

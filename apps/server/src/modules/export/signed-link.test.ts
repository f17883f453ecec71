import { describe, expect, it } from "vitest";
import { createExportLinkSigner } from "./signed-link";

const signer = createExportLinkSigner("a-server-secret-key-of-enough-length-000");
const now = new Date("2026-05-01T10:00:00Z");
const expiresAt = new Date("2026-05-01T10:15:00Z");

function parts(link: string) {
  const url = new URL(link, "http://palisade.test");
  return {
    id: decodeURIComponent(url.pathname.split("/").pop() ?? ""),
    expires: url.searchParams.get("expires") ?? undefined,
    signature: url.searchParams.get("signature") ?? undefined,
  };
}

describe("export links", () => {
  const link = signer.sign("job-1", expiresAt);
  const { id, expires, signature } = parts(link);

  it("accepts its own link before expiry", () => {
    expect(link).toMatch(/^\/exports\/job-1\?expires=\d+&signature=[\w-]+$/);
    expect(signer.verify(id, expires, signature, now)).toBe("ok");
  });

  it.each([
    ["expired", "job-1", expires, signature, new Date("2026-05-01T10:15:00Z"), "expired"],
    ["other id", "job-2", expires, signature, now, "invalid"],
    ["extended expiry", "job-1", String(Number(expires) + 3600), signature, now, "invalid"],
    [
      "tampered signature",
      "job-1",
      expires,
      `${signature?.slice(0, -1)}${signature?.endsWith("A") ? "B" : "A"}`,
      now,
      "invalid",
    ],
    ["no signature", "job-1", expires, undefined, now, "invalid"],
    ["no expiry", "job-1", undefined, signature, now, "invalid"],
  ])("refuses %s", (_name, linkId, linkExpires, linkSignature, at, expected) => {
    expect(signer.verify(linkId, linkExpires, linkSignature, at)).toBe(expected);
  });

  it("does not accept links signed under another server key", () => {
    const other = createExportLinkSigner("another-server-secret-key-of-enough-len");
    expect(other.verify(id, expires, signature, now)).toBe("invalid");
  });
});

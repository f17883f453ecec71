import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";

const INFO = "palisade/export-links/v1";
/** Download links are valid this long; they need no credentials. */
export const LINK_TTL_MS = 15 * 60_000;

export interface ExportLinkSigner {
  /** Path and query of a link to export `id` that stops working at `expiresAt`. */
  sign(id: string, expiresAt: Date): string;
  /** "ok", or why the link is refused. */
  verify(id: string, expires: string | undefined, signature: string | undefined, now: Date): LinkCheck;
}

export type LinkCheck = "ok" | "expired" | "invalid";

/**
 * Signs export download links with HMAC-SHA256 under a key derived (HKDF) from the server's
 * secret key, so links survive a restart and cannot be forged or extended.
 */
export function createExportLinkSigner(serverKey: string): ExportLinkSigner {
  const key = Buffer.from(hkdfSync("sha256", Buffer.from(serverKey, "utf8"), Buffer.alloc(0), INFO, 32));
  const mac = (id: string, expires: string) =>
    createHmac("sha256", key).update(`${id}\n${expires}`).digest("base64url");
  return {
    sign(id, expiresAt) {
      const expires = String(Math.floor(expiresAt.getTime() / 1000));
      return `/exports/${encodeURIComponent(id)}?expires=${expires}&signature=${mac(id, expires)}`;
    },
    verify(id, expires, signature, now) {
      if (!expires || !signature || !/^\d{1,12}$/.test(expires)) return "invalid";
      const expected = Buffer.from(mac(id, expires));
      const given = Buffer.from(signature);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return "invalid";
      return Number(expires) * 1000 <= now.getTime() ? "expired" : "ok";
    },
  };
}

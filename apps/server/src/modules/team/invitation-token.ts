import { createHash, randomBytes } from "node:crypto";

/**
 * The secret of an invitation link: 256 random bits. Only its SHA-256 is stored, so a copy of
 * the database does not hold working links.
 */
export function newInvitationToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, tokenHash: hashInvitationToken(token) };
}

export function hashInvitationToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}
